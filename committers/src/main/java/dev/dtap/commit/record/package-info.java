/**
 * What the committers write on the store and read back, and where it goes: the keys of a job's
 * directory ({@code JobLayout}) and of magic paths ({@code MagicPaths}), the pending files a task
 * leaves ({@code PendingFile}), task records and their generations ({@code TaskRecord}, {@code
 * TaskRecords}), journal entries and their walk ({@code JournalEntry}, {@code JournalWalk}), the
 * job's commit intent ({@code CommitIntent}) and their JSON form ({@code Json}). The values are
 * immutable; {@code TaskRecords} and {@code JournalWalk} write and list them through {@link
 * dev.dtap.commit.store.MultipartStore}.
 */
package dev.dtap.commit.record;
