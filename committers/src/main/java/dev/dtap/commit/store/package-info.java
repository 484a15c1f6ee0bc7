/**
 * What the committers need of an object store ({@link dev.dtap.commit.store.MultipartStore}) and
 * the values that cross it: uploads, parts, objects, the bytes of a part, request statistics and
 * the store's options. Implementations are found through {@link
 * dev.dtap.commit.store.MultipartStoreFactory}; this package knows no SDK.
 */
package dev.dtap.commit.store;
