package dev.dtap.tools;

import dev.dtap.commit.job.CommitRecovery;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.Path;

/** The {@code dtap committer} commands: unfinished jobs in a destination. */
final class CommitterCommands {
  private CommitterCommands() {}

  /** {@code dtap committer pending}: unfinished jobs and their journaled uploads. */
  static final class Pending implements Command {
    @Override
    public String name() {
      return "committer pending";
    }

    @Override
    public String arguments() {
      return "[--json] <dtap://tap/dest>";
    }

    @Override
    public String summary() {
      return "unfinished jobs in a destination and their journaled uploads; changes nothing";
    }

    @Override
    public Set<String> flags() {
      return Collections.singleton("--json");
    }

    @Override
    public String details() {
      return "A job is listed while it runs and after its driver died without committing or\n"
          + "aborting. Journaled uploads may be pending multipart uploads the store bills for.";
    }

    @Override
    public int run(Invocation in) throws Exception {
      Path dest = Taps.dtapPath(in.single("destination"));
      List<CommitRecovery.PendingJob> jobs = CommitRecovery.pending(dest, in.conf());
      Report report = new Report();
      Report.Table t =
          report.table("jobs", "job", "state", "task attempts:count", "journaled uploads:count");
      for (CommitRecovery.PendingJob j : jobs) {
        t.row(
            j.jobUuid,
            j.commitBegun ? "commit begun" : "not committing",
            j.taskAttempts,
            j.journaledUploads);
      }
      if (jobs.isEmpty()) {
        report.note("No unfinished jobs in " + dest);
      }
      report.print(in.out(), in.json());
      return DtapTool.OK;
    }
  }

  /** Runs recovery or abort over every job of a destination. */
  private abstract static class Finish implements Command {
    @Override
    public String arguments() {
      return "[--dry-run] [--json] <dtap://tap/dest>";
    }

    @Override
    public Set<String> flags() {
      return new java.util.HashSet<>(java.util.Arrays.asList("--dry-run", "--json"));
    }

    abstract List<CommitRecovery.JobReport> apply(Path dest, Invocation in, boolean dryRun)
        throws Exception;

    @Override
    public int run(Invocation in) throws Exception {
      Path dest = Taps.dtapPath(in.single("destination"));
      List<CommitRecovery.JobReport> reports = apply(dest, in, in.has("--dry-run"));
      Report report = new Report();
      if (in.json()) {
        Report.Table t =
            report.table("jobs", "job", "action", "files completed:count", "uploads aborted:count");
        for (CommitRecovery.JobReport r : reports) {
          t.row(r.jobUuid, r.action, r.filesCompleted, r.uploadsAborted);
        }
      } else {
        for (CommitRecovery.JobReport r : reports) {
          report.note(r.toString());
        }
      }
      if (reports.isEmpty()) {
        report.note("No unfinished jobs in " + dest);
      }
      report.print(in.out(), in.json());
      return DtapTool.OK;
    }
  }

  /** {@code dtap committer recover}. */
  static final class Recover extends Finish {
    @Override
    public String name() {
      return "committer recover";
    }

    @Override
    public String summary() {
      return "commit forward the jobs whose commit had begun, abort the others";
    }

    @Override
    public String details() {
      return "Only for jobs that are no longer running: a live job's uploads would be aborted.";
    }

    @Override
    List<CommitRecovery.JobReport> apply(Path dest, Invocation in, boolean dryRun)
        throws Exception {
      return CommitRecovery.recover(dest, in.conf(), dryRun);
    }
  }

  /** {@code dtap committer abort}. */
  static final class Abort extends Finish {
    @Override
    public String name() {
      return "committer abort";
    }

    @Override
    public String summary() {
      return "abort every unfinished job: uploads aborted, output of a begun commit removed";
    }

    @Override
    public String details() {
      return "Only for jobs that are no longer running. Leaves the destination as it was before\n"
          + "the jobs ran (files a begun commit completed are removed if they are still the"
          + " job's).";
    }

    @Override
    List<CommitRecovery.JobReport> apply(Path dest, Invocation in, boolean dryRun)
        throws Exception {
      return CommitRecovery.abort(dest, in.conf(), dryRun);
    }
  }
}
