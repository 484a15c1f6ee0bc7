package dev.dtap.commit;

import dev.dtap.commit.store.MultipartStore;
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
      return jobUuid + ": " + action + " (" + filesCompleted + " files completed, " + uploadsAborted + " uploads aborted)";
    }
  }

  private CommitRecovery() {}

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
  public static List<JobReport> recover(Path dest, Configuration conf, boolean dryRun) throws IOException {
    FileSystem fs = dest.getFileSystem(conf);
    CommitTap tap = CommitTap.of(fs, "Recovery");
    MultipartStore store = tap.store("recovery");
    Path qualified = fs.makeQualified(dest);
    CommitterConfig config = CommitterConfig.parse(conf);
    String destKey = tap.key(qualified);
    List<JobReport> reports = new ArrayList<>();
    RemoteIterator<String> jobs = store.listChildPrefixes(destKey.isEmpty() ? "" : destKey + "/");
    while (jobs.hasNext()) {
      String prefix = jobs.next();
      String name = prefix.substring(0, prefix.length() - 1);
      name = name.substring(name.lastIndexOf('/') + 1);
      if (!name.startsWith(JobLayout.JOB_DIR_PREFIX)) {
        continue;
      }
      String uuid = name.substring(JobLayout.JOB_DIR_PREFIX.length());
      JobLayout layout = new JobLayout(destKey, uuid);
      CommitContext probe = new CommitContext(tap, store, layout, uuid, qualified, config, "recovery");
      Optional<CommitIntent> intent = probe.intent();
      if (dryRun) {
        long entries = 0;
        JournalWalk walk = new JournalWalk(store, layout.journalRoot());
        while (walk.hasNext()) {
          entries += walk.next().size();
        }
        reports.add(new JobReport(uuid, intent.isPresent() ? "would be committed" : "would be aborted", 0, entries));
        continue;
      }
      if (intent.isPresent()) {
        CommitContext c = new CommitContext(tap, store, layout, intent.get().jobId(), qualified, config, "recovery");
        CommitSummary s = new JobCommit(c).run();
        reports.add(new JobReport(uuid, "committed", s.files.get() - s.alreadyCompleted.get(), s.aborted.get()));
      } else {
        reports.add(new JobReport(uuid, "aborted", 0, JobAbort.abort(probe, false)));
      }
    }
    return reports;
  }
}
