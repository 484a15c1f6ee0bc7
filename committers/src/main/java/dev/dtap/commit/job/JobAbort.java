package dev.dtap.commit.job;

import dev.dtap.commit.record.CommitIntent;
import dev.dtap.commit.record.JournalWalk;
import dev.dtap.commit.record.Json;
import dev.dtap.commit.record.PendingFile;
import dev.dtap.commit.record.TaskRecord;
import dev.dtap.commit.store.ObjectInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aborting a job: every upload its journal names is aborted, whatever state the job's tasks were
 * in, and its directory is deleted; for a task with more than one attempt, everything pending at
 * the keys it journaled (an attempt killed between an initiate and its entry left an upload there).
 * It never lists pending uploads by prefix (MinIO cannot), so it works on every store. When job
 * commit had begun, the files it already made visible are removed first (only objects that are
 * still the job's own, recognised by etag), so that a failed job leaves no partial output.
 * Idempotent.
 */
public final class JobAbort {
  private static final Logger LOG = LoggerFactory.getLogger(JobAbort.class);

  private JobAbort() {}

  /**
   * Aborts the job.
   *
   * @param c the job
   * @param rollBack whether to remove output a begun commit already made visible
   * @return the number of uploads aborted
   * @throws IOException on failure; run it again
   */
  public static long abort(CommitContext c, boolean rollBack) throws IOException {
    Optional<CommitIntent> intent = rollBack ? c.intent() : Optional.empty(); // a GET spared
    long[] aborted = {0};
    try (ParallelWork work = new ParallelWork(c.config().threads(), "dtap-job-abort")) {
      if (intent.isPresent()) {
        for (CommitIntent.Winner w : intent.get().winners()) {
          work.submit(() -> removeCompleted(c, w.recordKey));
        }
        work.await();
        removeOwnSuccess(c);
      }
      JournalWalk walk = new JournalWalk(c.store(), c.layout().journalRoot());
      while (walk.hasNext()) {
        JournalWalk.TaskJournal tj = walk.next();
        // an attempt killed between an initiate and its entry left an upload at a key its task's
        // other attempts journal: with more than one attempt, each journaled key is listed
        boolean listKeys = tj.hadSeveralAttempts();
        for (List<String> entries : tj.entries.values()) {
          for (String key : entries) {
            work.submit(
                () -> {
                  long n = listKeys ? abortAllAt(c, key) : (c.abortJournaled(key) ? 1 : 0);
                  synchronized (aborted) {
                    aborted[0] += n;
                  }
                });
          }
        }
      }
      work.await();
    }
    c.deleteJobDir();
    c.tap().metrics().jobAborted();
    LOG.info(
        "Aborted job {} in {}: {} pending uploads aborted",
        c.layout().uuid(),
        c.dest(),
        aborted[0]);
    return aborted[0];
  }

  private static long abortAllAt(CommitContext c, String entryKey) throws IOException {
    Optional<String> key = c.journaledKey(entryKey);
    return key.isPresent() ? c.abortPendingAt(key.get(), Collections.emptySet()) : 0;
  }

  /** Deletes the objects of a task record that are this job's (their etag is our upload's). */
  private static void removeCompleted(CommitContext c, String recordKey) throws IOException {
    TaskRecord r;
    try {
      r = c.record(recordKey);
    } catch (java.io.FileNotFoundException e) {
      return;
    }
    List<String> ours = new ArrayList<>();
    for (PendingFile f : r.files()) {
      Optional<ObjectInfo> o = c.store().head(f.key());
      if (o.isPresent() && f.isResultOf(o.get(), false)) {
        ours.add(f.key());
      }
    }
    if (!ours.isEmpty()) {
      c.store().delete(ours);
    }
  }

  private static void removeOwnSuccess(CommitContext c) throws IOException {
    Optional<byte[]> s = c.store().get(c.layout().success());
    if (s.isPresent()) {
      Json.Fields f =
          new Json.Fields(Json.parse(s.get(), c.where(c.layout().success())), c.layout().success());
      if (c.layout().uuid().equals(f.optString("jobId"))) {
        c.store().delete(java.util.Collections.singletonList(c.layout().success()));
      }
    }
  }
}
