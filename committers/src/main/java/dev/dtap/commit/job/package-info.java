/**
 * Job commit, abort and recovery on a multipart store: one job's context on one destination ({@code
 * CommitContext}); commit ({@code JobCommit}: intent, winners, completions in parallel, {@code
 * _SUCCESS} through {@code SuccessMarker} and {@code CommitSummary}); abort ({@code JobAbort}); and
 * finishing or undoing a job whose driver died mid-commit ({@code CommitRecovery}). Every
 * completion tells an upload this job finished from one it never did.
 */
package dev.dtap.commit.job;
