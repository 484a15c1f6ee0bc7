package dev.dtap.commit.job;

import dev.dtap.commit.config.ConflictMode;
import dev.dtap.commit.record.CommitIntent;
import dev.dtap.commit.record.JobLayout;
import dev.dtap.commit.record.JournalWalk;
import dev.dtap.commit.record.PendingFile;
import dev.dtap.commit.record.TaskRecord;
import dev.dtap.commit.record.TaskRecords;
import dev.dtap.commit.store.NoSuchUploadException;
import dev.dtap.commit.store.ObjectInfo;
import dev.dtap.commit.tap.CommitSteps;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.mapreduce.TaskID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job commit, in steps that can each be repeated:
 *
 * <ol>
 *   <li>decide: the highest-generation record of each task wins; the decision is written as the
 *       commit intent before anything visible changes (a repeated commit reuses it);
 *   <li>for {@code replace}, delete the old output, then mark the intent;
 *   <li>walk the journal task by task: complete the winning attempt's uploads, abort every other
 *       journaled upload (losing and uncommitted attempts, superseded files), in parallel;
 *   <li>write {@code _SUCCESS}; delete the job directory.
 * </ol>
 *
 * An upload already completed by an earlier run is recognised by its object's etag, so a commit
 * that failed or crashed at any point can be run again, by the framework or by {@code dtap
 * committer recover}, and ends with every file exactly once.
 */
public final class JobCommit {
  private static final Logger LOG = LoggerFactory.getLogger(JobCommit.class);
  private static final int CHUNK = 16;

  /** Looks for the object of an upload being completed elsewhere: ~6 s in all, then gives up. */
  private static final int COMPLETION_LOOKS = 6;

  private static final long COMPLETION_PAUSE_MS = 100;

  private final CommitContext c;
  private final CommitSummary summary = new CommitSummary();
  private final AtomicLong completed = new AtomicLong();

  public JobCommit(CommitContext c) {
    this.c = c;
  }

  /**
   * Commits the job.
   *
   * @return what was committed
   * @throws IOException if the commit fails; it can be run again
   */
  public CommitSummary run() throws IOException {
    long start = System.currentTimeMillis();
    Optional<CommitIntent> existing = c.intent();
    CommitIntent intent;
    if (existing.isPresent()) {
      intent = existing.get();
      LOG.info("Resuming the commit of job {} into {}", c.layout().uuid(), c.dest());
    } else {
      intent = decide();
      c.tap().steps().reached(CommitSteps.LISTED, 0);
      c.store().put(c.layout().intent(), intent.encode());
    }
    c.tap().steps().reached(CommitSteps.INTENT_WRITTEN, 0);
    if (intent.conflictMode() == ConflictMode.REPLACE && !intent.replaced()) {
      new OldOutput(c).replace(intent);
      intent = intent.withReplaced();
      c.store().put(c.layout().intent(), intent.encode());
      c.tap().steps().reached(CommitSteps.REPLACED, 0);
    }
    completeAll(intent);
    if (c.config().markSuccess()) {
      SuccessMarker.write(c, summary, System.currentTimeMillis() - start);
      c.tap().steps().reached(CommitSteps.SUCCESS_WRITTEN, 0);
    }
    c.deleteJobDir();
    c.tap().steps().reached(CommitSteps.CLEANED, 0);
    LOG.info("Committed job {} into {}: {}", c.layout().uuid(), c.dest(), summary);
    c.tap().metrics().jobCommitted();
    return summary;
  }

  private CommitIntent decide() throws IOException {
    Map<String, String> winners = TaskRecords.winners(c.store(), c.layout());
    List<CommitIntent.Winner> list = new ArrayList<>(winners.size());
    for (Map.Entry<String, String> w : winners.entrySet()) {
      checkTaskOfJob(w.getKey(), w.getValue());
      list.add(new CommitIntent.Winner(w.getKey(), w.getValue()));
    }
    return new CommitIntent(
        c.layout().uuid(),
        c.jobId(),
        System.currentTimeMillis(),
        c.config().conflictMode(),
        c.config().partitioned(),
        false,
        list);
  }

  /**
   * A record under this job's directory must be for a task of this job. Only checkable when the job
   * is named by its MapReduce job id: Spark names a job by its write uuid, and gives its tasks
   * JobIDs of their own (one per stage), unrelated to the driver's.
   */
  private void checkTaskOfJob(String taskId, String recordKey) throws IOException {
    if (!c.layout().uuid().equals(c.jobId())
        || !c.jobId().startsWith(org.apache.hadoop.mapreduce.JobID.JOB + "_")) {
      return; // the record's job uuid is checked when it is read
    }
    TaskID task;
    try {
      task = TaskID.forName(taskId);
    } catch (IllegalArgumentException e) {
      return; // not a Hadoop task id: a framework with its own ids; the record's job uuid is
      // checked
    }
    if (!task.getJobID().toString().equals(c.jobId())) {
      throw new IOException(
          "Task commit record "
              + c.where(recordKey)
              + " is for task "
              + taskId
              + " of another job than "
              + c.jobId());
    }
  }

  private void completeAll(CommitIntent intent) throws IOException {
    Map<String, String> winners = new HashMap<>();
    for (CommitIntent.Winner w : intent.winners()) {
      winners.put(w.taskId, w.recordKey);
    }
    summary.tasks.set(winners.size());
    try (ParallelWork work = new ParallelWork(c.config().threads(), "dtap-job-commit")) {
      JournalWalk walk = new JournalWalk(c.store(), c.layout().journalRoot());
      while (walk.hasNext() && !work.failed()) {
        JournalWalk.TaskJournal tj = walk.next();
        String recordKey = winners.get(tj.taskId);
        work.submit(() -> commitTask(work, tj, recordKey));
      }
      work.await();
    }
  }

  /**
   * Completes a task's winning uploads and aborts its other journaled ones. When the task had more
   * than one attempt, an earlier one may have been killed between an initiate and its journal
   * entry: what is pending at each key the task journaled or completed is aborted too (one listing
   * of that key; see {@link CommitContext#abortPendingAt}).
   */
  private void commitTask(ParallelWork work, JournalWalk.TaskJournal tj, String recordKey)
      throws IOException {
    Set<String> covered = new HashSet<>();
    Set<String> winning = new HashSet<>();
    String winner = null;
    boolean retried = tj.hadSeveralAttempts();
    if (recordKey != null) {
      TaskRecord r = c.record(recordKey);
      winner = r.attemptId();
      retried |= JobLayout.isLaterAttempt(winner);
      List<PendingFile> files = r.files();
      for (PendingFile f : files) {
        covered.add(f.journalName());
        winning.add(f.uploadId());
      }
      boolean listKeys = retried;
      for (int i = 0; i < files.size(); i += CHUNK) {
        List<PendingFile> chunk = files.subList(i, Math.min(files.size(), i + CHUNK));
        if (i + CHUNK >= files.size()) {
          completeEach(chunk, listKeys); // the last chunk here: a small task needs no hand-off
        } else {
          work.submitNested(() -> completeEach(chunk, listKeys));
        }
      }
    }
    for (Map.Entry<String, List<String>> e : tj.entries.entrySet()) {
      boolean won = e.getKey().equals(winner);
      for (String entryKey : e.getValue()) {
        String name = entryKey.substring(entryKey.lastIndexOf('/') + 1);
        if (won && covered.contains(name)) {
          continue;
        }
        if (!retried) {
          if (c.abortJournaled(entryKey)) {
            summary.aborted.incrementAndGet();
          }
        } else {
          Optional<String> key = c.journaledKey(entryKey);
          if (key.isPresent()) {
            summary.aborted.addAndGet(c.abortPendingAt(key.get(), winning));
          }
        }
      }
    }
  }

  private void completeEach(List<PendingFile> files, boolean listKeys) throws IOException {
    for (PendingFile f : files) {
      complete(f);
      if (listKeys) {
        summary.aborted.addAndGet(c.abortPendingAt(f.key(), Collections.singleton(f.uploadId())));
      }
      summary.files.incrementAndGet();
      summary.bytes.addAndGet(f.length());
      summary.filename(c.displayPath(f.key()));
      c.tap().steps().reached(CommitSteps.COMPLETED, completed.incrementAndGet());
    }
  }

  /**
   * Completes an upload, or confirms that it was completed already: by an earlier run of job
   * commit, or by this one's own request whose answer was lost and which the client sent again. A
   * complete that finds its upload gone ({@link NoSuchUploadException}: S3's {@code NoSuchUpload},
   * MinIO's {@code InvalidPart}) looks at the object: its own result is success, another object or
   * none is a failure. While the upload is still listed, an earlier complete of it may still be
   * under way in the store (its sender died, or gave up waiting), so the object is looked for
   * again, with growing pauses, before the upload is given up.
   */
  private void complete(PendingFile f) throws IOException {
    for (int look = 0; ; look++) {
      NoSuchUploadException gone;
      try {
        c.store().complete(f.key(), f.uploadId(), f.parts());
        return;
      } catch (NoSuchUploadException e) {
        gone = e;
      }
      Optional<ObjectInfo> o = c.store().head(f.key());
      if (o.isPresent() && f.isResultOf(o.get(), true)) {
        summary.alreadyCompleted.incrementAndGet();
        return;
      }
      boolean listed = c.store().listParts(f.key(), f.uploadId()).isPresent();
      if (!listed || look == COMPLETION_LOOKS) {
        throw notCompleted(f, o.isPresent(), listed, gone);
      }
      pause(COMPLETION_PAUSE_MS << look);
    }
  }

  private IOException notCompleted(
      PendingFile f, boolean objectThere, boolean listed, NoSuchUploadException cause) {
    String state =
        listed
            ? "is still pending but could not be completed"
            : "is no longer pending and "
                + (objectThere ? "the object there is not its result" : "no object is there")
                + ": it was aborted, or overwritten by another writer";
    return new IOException(
        "Upload "
            + f.uploadId()
            + " of "
            + c.displayPath(f.key())
            + " "
            + state
            + "; the job's output is incomplete",
        cause);
  }

  private static void pause(long millis) throws InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while an upload was being completed");
    }
  }

  /** Deletes existing output for the {@code replace} conflict mode. */
  static final class OldOutput {
    private final CommitContext c;

    OldOutput(CommitContext c) {
      this.c = c;
    }

    void replace(CommitIntent intent) throws IOException {
      boolean partitioned =
          intent.partitioned() != null ? intent.partitioned() : c.config().partitioned();
      if (!partitioned) {
        deleteUnder(c.layout().destPrefix(), true);
        return;
      }
      Set<String> partitions = new TreeSet<>();
      for (CommitIntent.Winner w : intent.winners()) {
        partitions.addAll(c.record(w.recordKey).partitions());
      }
      for (String p : partitions) {
        if (p.isEmpty()) {
          deleteUnder(c.layout().destPrefix(), false);
        } else {
          deleteUnder(c.layout().destPrefix() + p + "/", true);
        }
      }
    }

    /**
     * Deletes output objects under a prefix, never commit data; optionally only direct children.
     */
    private void deleteUnder(String prefix, boolean recursive) throws IOException {
      c.deleteUnder(
          prefix,
          key ->
              JobLayout.isCommitData(c.layout().destPrefix(), key)
                  || (!recursive && key.indexOf('/', prefix.length()) >= 0));
    }
  }
}
