/**
 * The magic and staging committers and what they share: binding to MapReduce and Spark ({@code
 * DataTapCommitterFactory}, {@code DtapCommitter}), the per-tap state a task JVM keeps between a
 * task's writes and its commit ({@code CommitTap}), task commit and its records, job commit, abort
 * and recovery, the journal and the records they write, and the committers' configuration keys.
 * Everything here reaches the object store through {@link dev.dtap.commit.store.MultipartStore}
 * only.
 */
package dev.dtap.commit;
