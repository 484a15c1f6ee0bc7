package dev.dtap.commit.job;

import dev.dtap.commit.config.CommitterConfig;
import dev.dtap.commit.record.CommitIntent;
import dev.dtap.commit.record.JobLayout;
import dev.dtap.commit.record.JournalWalk;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.tap.AuditContext;
import dev.dtap.commit.tap.CommitTap;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Recovers the jobs left behind in a destination by crashed drivers (the {@code dtap committer
 * recover} command): a job whose commit had begun (it has a commit intent) is committed forward to
 * the end; a job whose commit had not begun has every journaled upload aborted. Either way its
 * directory is removed and no pending upload it started is left. Only run it for jobs that are no
 * longer running: a live job's uploads would be aborted under it.
 *
 * <p>Each job's requests are tagged with its unique id in Hadoop's audit context ({@code ji=}, as
 * the job's own were), and the calling thread's ids are given back when it is settled. Thread-safe:
 * each call works on its own listing.
 */
public final class CommitRecovery {
  /** What recovery did, or would do, for one job. Immutable. */
  public static final class JobReport {
    /** The job's unique id. */
    public final String jobUuid;

    /** {@code committed} or {@code aborted} (with {@code would be} on a dry run). */
    public final String action;

    /** Files completed by this recovery. */
    public final long filesCompleted;

    /** Uploads aborted by this recovery (on a dry run: journal entries found). */
    public final long uploadsAborted;

    JobReport(String jobUuid, String action, long filesCompleted, long uploadsAborted) {
      this.jobUuid = jobUuid;
      this.action = action;
      this.filesCompleted = filesCompleted;
      this.uploadsAborted = uploadsAborted;
    }

    @Override
    public String toString() {
      return jobUuid
          + ": "
          + action
          + " ("
          + filesCompleted
          + " files completed, "
          + uploadsAborted
          + " uploads aborted)";
    }
  }

  /** One unfinished job found in a destination. Immutable. */
  public static final class PendingJob {
    /** The job's unique id. */
    public final String jobUuid;

    /** Whether its commit had begun (recovery would commit it forward). */
    public final boolean commitBegun;

    /** Task attempts with a journal. */
    public final long taskAttempts;

    /** Journaled uploads: each may be a pending multipart upload the store bills for. */
    public final long journaledUploads;

    PendingJob(String jobUuid, boolean commitBegun, long taskAttempts, long journaledUploads) {
      this.jobUuid = jobUuid;
      this.commitBegun = commitBegun;
      this.taskAttempts = taskAttempts;
      this.journaledUploads = journaledUploads;
    }
  }

  /** What to do with each job found. */
  private enum Mode {
    RECOVER,
    ABORT
  }

  private CommitRecovery() {}

  /**
   * Lists the unfinished jobs in a destination: those whose directory is still there, running or
   * left by a crashed driver. Changes nothing.
   *
   * @param dest the job's output directory, a dtap path
   * @param conf the configuration with the tap's settings
   * @return one entry per job
   * @throws IOException if the destination is not on a tap with a multipart store, or listing fails
   */
  public static List<PendingJob> pending(Path dest, Configuration conf) throws IOException {
    List<PendingJob> result = new ArrayList<>();
    Jobs jobs = new Jobs(dest, conf, "Listing pending jobs");
    while (jobs.hasNext()) {
      CommitContext probe = jobs.next();
      long[] journal = journal(jobs.store, probe.layout());
      result.add(
          new PendingJob(
              probe.layout().uuid(), probe.intent().isPresent(), journal[0], journal[1]));
    }
    return result;
  }

  /**
   * Recovers every job found under a destination.
   *
   * @param dest the job's output directory, a dtap path
   * @param conf the configuration with the tap's settings
   * @param dryRun report only
   * @return one report per job found
   * @throws IOException if the destination is not on a tap with a multipart store, or recovery
   *     fails (it can be run again)
   */
  public static List<JobReport> recover(Path dest, Configuration conf, boolean dryRun)
      throws IOException {
    return run(dest, conf, dryRun, Mode.RECOVER);
  }

  /**
   * Aborts every job found under a destination, whether or not its commit had begun: uploads are
   * aborted and the files a begun commit had made visible are removed, so the destination is left
   * as it was before the jobs ran. Only for jobs that are no longer running.
   *
   * @param dest the job's output directory, a dtap path
   * @param conf the configuration with the tap's settings
   * @param dryRun report only
   * @return one report per job found
   * @throws IOException if the destination is not on a tap with a multipart store, or aborting
   *     fails (it can be run again)
   */
  public static List<JobReport> abort(Path dest, Configuration conf, boolean dryRun)
      throws IOException {
    return run(dest, conf, dryRun, Mode.ABORT);
  }

  private static List<JobReport> run(Path dest, Configuration conf, boolean dryRun, Mode mode)
      throws IOException {
    List<JobReport> reports = new ArrayList<>();
    Jobs jobs = new Jobs(dest, conf, mode == Mode.RECOVER ? "Recovery" : "Abort");
    while (jobs.hasNext()) {
      CommitContext probe = jobs.next();
      // a store's access log then ties recovery's reads, completes and aborts to the job they
      // finish; the caller's thread gets its own ids back
      reports.add(
          AuditContext.callAs(
              probe.layout().uuid(), null, () -> settle(jobs, probe, dryRun, mode)));
    }
    return reports;
  }

  private static JobReport settle(Jobs jobs, CommitContext probe, boolean dryRun, Mode mode)
      throws IOException {
    String uuid = probe.layout().uuid();
    Optional<CommitIntent> intent = probe.intent();
    boolean forward = mode == Mode.RECOVER && intent.isPresent();
    if (dryRun) {
      long entries = journal(jobs.store, probe.layout())[1];
      return new JobReport(uuid, forward ? "would be committed" : "would be aborted", 0, entries);
    }
    JobReport report;
    if (forward) {
      CommitContext c =
          new CommitContext(
              jobs.tap,
              jobs.store,
              probe.layout(),
              intent.get().jobId(),
              jobs.dest,
              jobs.config,
              "recovery");
      CommitSummary s = new JobCommit(c).run();
      report =
          new JobReport(
              uuid, "committed", s.files.get() - s.alreadyCompleted.get(), s.aborted.get());
    } else {
      report = new JobReport(uuid, "aborted", 0, JobAbort.abort(probe, intent.isPresent()));
    }
    jobs.tap.metrics().jobRecovered();
    return report;
  }

  /** The task attempts with a journal, and the journaled uploads, of one job. */
  private static long[] journal(MultipartStore store, JobLayout layout) throws IOException {
    long attempts = 0;
    long entries = 0;
    JournalWalk walk = new JournalWalk(store, layout.journalRoot());
    while (walk.hasNext()) {
      JournalWalk.TaskJournal tj = walk.next();
      attempts += tj.entries.size();
      entries += tj.size();
    }
    return new long[] {attempts, entries};
  }

  /** The job directories under a destination, each as a context to probe. */
  private static final class Jobs {
    final CommitTap tap;
    final MultipartStore store;
    final Path dest;
    final CommitterConfig config;
    final String destKey;
    final RemoteIterator<String> prefixes;
    private CommitContext next;

    Jobs(Path dest, Configuration conf, String what) throws IOException {
      FileSystem fs = dest.getFileSystem(conf);
      this.tap = CommitTap.of(fs, what);
      this.store = tap.store("recovery");
      this.dest = fs.makeQualified(dest);
      this.config = CommitterConfig.parse(conf);
      this.destKey = tap.key(this.dest);
      this.prefixes = store.listChildPrefixes(destKey.isEmpty() ? "" : destKey + "/");
    }

    boolean hasNext() throws IOException {
      while (next == null && prefixes.hasNext()) {
        String prefix = prefixes.next();
        String name = prefix.substring(0, prefix.length() - 1);
        name = name.substring(name.lastIndexOf('/') + 1);
        if (name.startsWith(JobLayout.JOB_DIR_PREFIX)) {
          String uuid = name.substring(JobLayout.JOB_DIR_PREFIX.length());
          JobLayout layout = new JobLayout(destKey, uuid);
          next = new CommitContext(tap, store, layout, uuid, dest, config, "recovery");
        }
      }
      return next != null;
    }

    CommitContext next() {
      CommitContext c = next;
      next = null;
      return c;
    }
  }
}
