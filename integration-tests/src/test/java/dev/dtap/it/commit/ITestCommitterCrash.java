package dev.dtap.it.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.CommitTesting;
import dev.dtap.commit.DataTapCommitterFactory;
import dev.dtap.commit.job.CommitRecovery;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.RepoRoot;
import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real process deaths on MinIO: a job driver halted (as by kill -9) at every step of job commit, a
 * driver killed with SIGKILL in the middle of completing files, and a task JVM killed in the middle
 * of a multipart upload. After each, recovery (or a repeated job commit) leaves either the complete
 * output or none, and asking MinIO with list-parts about every upload the journal named finds none
 * pending.
 */
class ITestCommitterCrash {
  private Configuration conf() throws IOException {
    Configuration conf = S3Commits.conf();
    conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", DataTapCommitterFactory.class.getName());
    conf.set("fs.dtap.committer.name", "magic");
    conf.set("fs.dtap.committer.part.size", "5m");
    return conf;
  }

  private static JobID newJobId() {
    return new JobID(
        "2026" + ThreadLocalRandom.current().nextInt(100000, 999999),
        ThreadLocalRandom.current().nextInt(1, 9999));
  }

  private static TaskAttemptContext attempt(Configuration conf, JobID job, int task, int attempt) {
    return new TaskAttemptContextImpl(
        conf, new TaskAttemptID(new TaskID(job, TaskType.MAP, task), attempt));
  }

  /** Sets the job up and commits {@code tasks} tasks of one small file each, plus a loser. */
  private List<String> prepare(Configuration conf, Path dest, JobID job, int tasks)
      throws IOException {
    PathOutputCommitterFactory.createCommitter(dest, attempt(conf, job, 0, 0))
        .setupJob(new JobContextImpl(conf, job));
    List<String> names = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      names.add(writeAndMaybeCommit(conf, dest, job, i, 0, true));
    }
    writeAndMaybeCommit(conf, dest, job, 0, 1, false); // a speculative attempt that never commits
    return names;
  }

  private String writeAndMaybeCommit(
      Configuration conf, Path dest, JobID job, int task, int att, boolean commit)
      throws IOException {
    TaskAttemptContext t = attempt(conf, job, task, att);
    PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, t);
    c.setupTask(t);
    String name = "part-" + task + "-" + att;
    Path file = new Path(c.getWorkPath(), name);
    try (FSDataOutputStream out = file.getFileSystem(conf).create(file, true)) {
      out.write(("task " + task + " attempt " + att + "\n").getBytes(StandardCharsets.UTF_8));
    }
    if (commit) {
      c.commitTask(t);
    }
    return name;
  }

  private Process child(Configuration conf, String... args) throws IOException {
    File xml = new File(RepoRoot.data(), "commit-child-" + System.nanoTime() + ".xml");
    xml.getParentFile().mkdirs();
    try (OutputStream out = new FileOutputStream(xml)) {
      conf.writeXml(out);
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(CommitChild.class.getName());
    cmd.add(args[0]);
    cmd.add(xml.getAbsolutePath());
    for (int i = 1; i < args.length; i++) {
      cmd.add(args[i]);
    }
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectError(new File(RepoRoot.logs(), "commit-child-" + System.nanoTime() + ".log"));
    return pb.start();
  }

  private TreeSet<String> output(FileSystem fs, Path dest) throws IOException {
    TreeSet<String> names = new TreeSet<>();
    if (fs.exists(dest)) {
      for (FileStatus s : fs.listStatus(dest)) {
        names.add(s.getPath().getName());
      }
    }
    return names;
  }

  @Test
  void driverHaltedAtEveryStepOfJobCommitIsRecovered() throws Exception {
    Configuration conf = conf();
    String[][] crashes = {
      {"listed", "0"},
      {"intent-written", "0"},
      {"completed", "1"},
      {"completed", "4"},
      {"success-written", "0"}
    };
    for (String[] crash : crashes) {
      Path dest = S3Commits.newDestination("crash-" + crash[0] + "-" + crash[1]);
      FileSystem fs = dest.getFileSystem(conf);
      JobID job = newJobId();
      List<String> names = prepare(conf, dest, job, 6);
      List<CommitTesting.Upload> journaled = CommitTesting.journaled(dest, conf, job.toString());
      assertThat(journaled).hasSize(7);

      Process p = child(conf, "commit", dest.toString(), job.toString(), crash[0], crash[1]);
      String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as("driver output: " + stdout).isEqualTo(137);

      List<CommitRecovery.JobReport> reports = CommitRecovery.recover(dest, conf, false);
      assertThat(reports).hasSize(1);
      TreeSet<String> expected = new TreeSet<>();
      if (!crash[0].equals("listed")) {
        expected.addAll(names);
        expected.add("_SUCCESS");
        assertThat(reports.get(0).action).isEqualTo("committed");
      } else {
        assertThat(reports.get(0).action).isEqualTo("aborted");
      }
      assertThat(output(fs, dest))
          .as("after a crash at " + String.join("#", crash))
          .isEqualTo(expected);
      assertThat(CommitTesting.pending(dest, conf, journaled)).as("pending uploads").isEmpty();
      assertThat(CommitTesting.jobDirExists(dest, conf, job.toString())).isFalse();
      assertThat(CommitRecovery.recover(dest, conf, false)).as("recovery is idempotent").isEmpty();
    }
  }

  @Test
  void repeatingJobCommitAfterADriverCrashFinishesIt() throws Exception {
    Configuration conf = conf();
    Path dest = S3Commits.newDestination("crash-rerun");
    JobID job = newJobId();
    List<String> names = prepare(conf, dest, job, 5);
    List<CommitTesting.Upload> journaled = CommitTesting.journaled(dest, conf, job.toString());
    Process p = child(conf, "commit", dest.toString(), job.toString(), "completed", "3");
    p.getInputStream().readAllBytes();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(137);
    // an AM restarted by YARN runs job commit again (isCommitJobRepeatable)
    PathOutputCommitterFactory.createCommitter(dest, attempt(conf, job, 0, 0))
        .commitJob(new JobContextImpl(conf, job));
    TreeSet<String> expected = new TreeSet<>(names);
    expected.add("_SUCCESS");
    assertThat(output(dest.getFileSystem(conf), dest)).isEqualTo(expected);
    assertThat(CommitTesting.pending(dest, conf, journaled)).isEmpty();
  }

  @Test
  void driverKilledMidCommitIsRecovered() throws Exception {
    Configuration conf = conf();
    conf.set("fs.dtap.committer.threads", "2");
    Path dest = S3Commits.newDestination("crash-sigkill");
    JobID job = newJobId();
    List<String> names = prepare(conf, dest, job, 40);
    List<CommitTesting.Upload> journaled = CommitTesting.journaled(dest, conf, job.toString());
    Process p = child(conf, "commit", dest.toString(), job.toString(), "slow", "0");
    BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = r.readLine()) != null && !line.equals("completed 10")) {
      // wait until a quarter of the files are complete
    }
    assertThat(line).as("the driver reached 10 completes").isEqualTo("completed 10");
    p.destroyForcibly(); // SIGKILL
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    FileSystem fs = dest.getFileSystem(conf);
    assertThat(output(fs, dest))
        .as("partial output before recovery")
        .isNotEmpty()
        .doesNotContain("_SUCCESS");

    List<CommitRecovery.JobReport> reports = CommitRecovery.recover(dest, conf, false);
    assertThat(reports).hasSize(1);
    assertThat(reports.get(0).action).isEqualTo("committed");
    TreeSet<String> expected = new TreeSet<>(names);
    expected.add("_SUCCESS");
    assertThat(output(fs, dest)).isEqualTo(expected);
    assertThat(CommitTesting.pending(dest, conf, journaled)).isEmpty();
  }

  @Test
  void taskKilledMidUploadLeavesNothingPending() throws Exception {
    Configuration conf = conf();
    Path dest = S3Commits.newDestination("crash-task");
    JobID job = newJobId();
    PathOutputCommitterFactory.createCommitter(dest, attempt(conf, job, 0, 0))
        .setupJob(new JobContextImpl(conf, job));
    String survivor = writeAndMaybeCommit(conf, dest, job, 1, 0, true);

    Process p = child(conf, "write", dest.toString(), job.toString(), "0", "24");
    BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = r.readLine()) != null && !line.equals("written 16")) {
      // wait until at least three 5 MiB parts were sent
    }
    assertThat(line).isEqualTo("written 16");
    p.destroyForcibly();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

    List<CommitTesting.Upload> journaled = CommitTesting.journaled(dest, conf, job.toString());
    assertThat(journaled).as("the killed task's upload and the survivor's").hasSize(2);
    assertThat(CommitTesting.pending(dest, conf, journaled))
        .as("both pending before job commit")
        .hasSize(2);

    // the AM gives up on the killed attempt and commits the job with what was committed
    PathOutputCommitterFactory.createCommitter(dest, attempt(conf, job, 0, 0))
        .commitJob(new JobContextImpl(conf, job));
    TreeSet<String> expected = new TreeSet<>();
    expected.add(survivor);
    expected.add("_SUCCESS");
    assertThat(output(dest.getFileSystem(conf), dest)).isEqualTo(expected);
    assertThat(CommitTesting.pending(dest, conf, journaled))
        .as("pending after job commit")
        .isEmpty();
  }

  /**
   * A task attempt killed with SIGKILL after its initiate reached the store and before the upload's
   * journal entry was written; the task runs again as attempt 1 and the job is committed, or
   * aborted. Either way nothing is left pending at the file's key.
   */
  @ParameterizedTest(name = "then job {0}")
  @ValueSource(strings = {"commit", "abort"})
  void taskKilledBetweenInitiateAndEntryLeavesNothingPending(String end) throws Exception {
    Configuration conf = conf();
    Path dest = S3Commits.newDestination("crash-initiate");
    JobID job = newJobId();
    JobContextImpl jobContext = new JobContextImpl(conf, job);
    PathOutputCommitter am =
        PathOutputCommitterFactory.createCommitter(dest, attempt(conf, job, 0, 0));
    am.setupJob(jobContext);
    String prefix = "warehouse/" + dest.getName() + "/";

    Process p = child(conf, "initiate", dest.toString(), job.toString(), "0");
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(said.substring(said.lastIndexOf('\n') + 1))
        .as("the child's last words (all: %s)", said)
        .isEqualTo("killing");
    assertThat(p.exitValue()).as("exit status of a JVM ended by SIGKILL").isEqualTo(137);
    assertThat(CommitTesting.journaled(dest, conf, job.toString()))
        .as("journal entries the killed attempt wrote")
        .isEmpty();
    assertThat(MinioFixture.get().pendingUploads(S3Commits.bucket(), prefix))
        .as("the killed attempt's upload, which no journal names")
        .hasSize(1);

    TaskAttemptContext retry = attempt(conf, job, 0, 1);
    PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, retry);
    c.setupTask(retry);
    Path file = new Path(c.getWorkPath(), "part-0");
    try (FSDataOutputStream out = file.getFileSystem(conf).create(file, true)) {
      out.write(CommitTesting.taskLine(0).getBytes(StandardCharsets.UTF_8));
    }
    c.commitTask(retry);

    if (end.equals("commit")) {
      am.commitJob(jobContext);
      CommitTesting.assertTaskFiles(dest, conf, 1);
    } else {
      am.abortJob(jobContext, JobStatus.State.FAILED);
      assertThat(output(dest.getFileSystem(conf), dest)).as("after job abort").isEmpty();
    }
    assertThat(MinioFixture.get().pendingUploads(S3Commits.bucket(), prefix))
        .as("uploads pending under the destination after job " + end)
        .isEmpty();
  }

  /**
   * A task attempt given up for dead runs on after its job was committed and writes its file again
   * (a zombie): its upload sits in a job directory without a commit intent, which {@code dtap
   * committer recover} aborts, leaving the committed output as it was.
   */
  @Test
  void whatAZombieWritesAfterJobCommitIsAbortedByRecover() throws Exception {
    Configuration conf = conf();
    Path dest = S3Commits.newDestination("crash-zombie");
    JobID job = newJobId();
    JobContextImpl jobContext = new JobContextImpl(conf, job);
    PathOutputCommitter am =
        PathOutputCommitterFactory.createCommitter(dest, attempt(conf, job, 0, 0));
    am.setupJob(jobContext);
    String committed = writeAndMaybeCommit(conf, dest, job, 0, 1, true);
    am.commitJob(jobContext);
    String prefix = "warehouse/" + dest.getName() + "/";
    assertThat(MinioFixture.get().pendingUploads(S3Commits.bucket(), prefix)).isEmpty();

    writeAndMaybeCommit(conf, dest, job, 0, 0, true); // the zombie: attempt 0, thought dead
    assertThat(MinioFixture.get().pendingUploads(S3Commits.bucket(), prefix))
        .as("the zombie's upload")
        .hasSize(1);

    List<CommitRecovery.JobReport> reports = CommitRecovery.recover(dest, conf, false);

    assertThat(reports).hasSize(1);
    assertThat(reports.get(0).action).isEqualTo("aborted");
    assertThat(MinioFixture.get().pendingUploads(S3Commits.bucket(), prefix))
        .as("uploads pending under the destination after recover")
        .isEmpty();
    TreeSet<String> expected = new TreeSet<>();
    expected.add(committed);
    expected.add("_SUCCESS");
    assertThat(output(dest.getFileSystem(conf), dest)).isEqualTo(expected);
  }
}
