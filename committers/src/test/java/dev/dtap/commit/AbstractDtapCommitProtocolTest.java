package dev.dtap.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.commit.job.CommitRecovery;
import dev.dtap.commit.job.SuccessMarker;
import dev.dtap.commit.tap.AuditContext;
import dev.dtap.commit.tap.CommitSteps;
import dev.dtap.commit.tap.PartBuffers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.audit.AuditConstants;
import org.apache.hadoop.fs.audit.CommonAuditContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The protocol scenarios plus what the dtap committers promise beyond Hadoop's: no upload is ever
 * left pending (checked after every scenario by asking the store about each journaled upload with
 * list-parts), exclusive task commits, a failed job commit that can be retried or rolled back, a
 * crash at every step of job commit followed by recovery, conflict modes, multi-part files.
 */
public abstract class AbstractDtapCommitProtocolTest extends AbstractCommitProtocolTest {
  private final List<CommitTesting.Upload> seen = new ArrayList<>();

  @AfterEach
  void noPendingUploads() throws Exception {
    CommitTesting.onCommitStep(dest, conf, null);
    assertThat(CommitTesting.pending(dest, conf, seen)).as("uploads left pending").isEmpty();
  }

  @Override
  protected void recordUploads(Job job) throws IOException {
    for (CommitTesting.Upload u : CommitTesting.journaled(job.out, conf, job.id.toString())) {
      if (!seen.toString().contains(u.toString())) {
        seen.add(u);
      }
    }
  }

  @Override
  protected void assertPending(int expected) throws IOException {
    assertThat(CommitTesting.pending(dest, conf, seen)).as("pending uploads").hasSize(expected);
  }

  @Override
  protected void assertSuccessMarker(Job job, int files) throws IOException {
    Path marker = new Path(job.out, "_SUCCESS");
    assertThat(fs().exists(marker)).as("_SUCCESS").isTrue();
    try (FSDataInputStream in = fs().open(marker)) {
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(json)
          .contains("\"name\" : \"" + SuccessMarker.NAME + "\"")
          .contains("\"jobId\" : \"" + job.id + "\"")
          .contains("\"committer_files_committed\" : " + files);
    }
  }

  @Override
  protected void assertJobDataGone(Job job) throws IOException {
    assertThat(CommitTesting.jobDirExists(job.out, conf, job.id.toString()))
        .as("job directory left")
        .isFalse();
  }

  @Test
  void onlyAnAttemptThatWroteAsksToCommit() throws Exception {
    // MapReduce asks every task, a map of a job with reducers too; a yes costs the task a wait for
    // the application master's leave to commit, polled once a second
    Job job = newJob();
    job.setup();
    TaskAttemptContext idle = job.task(0, 0);
    job.committer(idle).setupTask(idle);
    assertThat(job.committer(idle).needsTaskCommit(idle))
        .as("an attempt that wrote nothing")
        .isFalse();
    TaskAttemptContext wrote = job.task(1, 0);
    String name = job.write(wrote, "written");
    assertThat(job.committer(wrote).needsTaskCommit(wrote)).as("an attempt that wrote").isTrue();
    job.commitTask(idle);
    job.commitTask(wrote);
    job.commit();
    assertThat(output(dest)).containsOnly(java.util.Map.entry(name, "written\n"));
    assertSuccessMarker(job, 1);
  }

  @Test
  void concurrentAttemptCommitsMakeExactlyOneVisible() throws Exception {
    Job job = newJob();
    job.setup();
    int attempts = 4;
    List<TaskAttemptContext> ctx = new ArrayList<>();
    for (int a = 0; a < attempts; a++) {
      TaskAttemptContext t = job.task(0, a);
      t.getConfiguration().set("mapreduce.output.basename", "a" + a);
      job.write(t, "attempt " + a);
      ctx.add(t);
    }
    ExecutorService pool = Executors.newFixedThreadPool(attempts);
    try {
      List<Future<?>> f = new ArrayList<>();
      for (TaskAttemptContext t : ctx) {
        f.add(
            pool.submit(
                () -> {
                  job.commitTask(t);
                  return null;
                }));
      }
      for (Future<?> x : f) {
        x.get();
      }
    } finally {
      pool.shutdown();
    }
    job.commit();
    assertThat(output(dest)).hasSize(1);
  }

  @Test
  void failedJobCommitCanBeRetried() throws Exception {
    Job job = newJob();
    job.setup();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      TaskAttemptContext t = job.task(i, 0);
      names.add(job.write(t, "task " + i));
      job.commitTask(t);
    }
    CommitTesting.onCommitStep(
        dest,
        conf,
        (step, n) -> {
          if (step.equals(CommitSteps.COMPLETED) && n == 2) {
            throw new IOException("injected failure after two completes");
          }
        });
    assertThatThrownBy(job::commit).hasMessageContaining("injected failure");
    CommitTesting.onCommitStep(dest, conf, null);
    job.commit();
    assertThat(output(dest)).containsOnlyKeys(names);
    assertSuccessMarker(job, 3);
    assertJobDataGone(job);
  }

  @Test
  void abortJobAfterAFailedCommitRemovesWhatItPublished() throws Exception {
    Job job = newJob();
    PathOutputCommitter am = job.setup();
    for (int i = 0; i < 3; i++) {
      TaskAttemptContext t = job.task(i, 0);
      job.write(t, "task " + i);
      job.commitTask(t);
    }
    CommitTesting.onCommitStep(
        dest,
        conf,
        (step, n) -> {
          if (step.equals(CommitSteps.COMPLETED) && n == 1) {
            throw new IOException("injected failure after one complete");
          }
        });
    assertThatThrownBy(job::commit).hasMessageContaining("injected");
    CommitTesting.onCommitStep(dest, conf, null);
    am.abortJob(job.context(), JobStatus.State.FAILED);
    assertThat(output(dest)).isEmpty();
    assertJobDataGone(job);
  }

  @Test
  void crashAtEveryStepOfJobCommitThenRecovery() throws Exception {
    String[] steps = {
      CommitSteps.LISTED,
      CommitSteps.INTENT_WRITTEN,
      CommitSteps.COMPLETED + "#1",
      CommitSteps.COMPLETED + "#3",
      CommitSteps.SUCCESS_WRITTEN,
      CommitSteps.CLEANED
    };
    for (String crashAt : steps) {
      Path out = new Path(dest, "crash-" + crashAt.replace('#', '-'));
      Job job = new Job(out, conf);
      job.setup();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        TaskAttemptContext t = job.task(i, 0);
        names.add(job.write(t, "task " + i));
        job.commitTask(t);
      }
      // an uncommitted attempt whose upload recovery must abort either way
      TaskAttemptContext loser = job.task(0, 1);
      loser.getConfiguration().set("mapreduce.output.basename", "loser");
      job.write(loser, "never committed");
      job.journal();
      CommitTesting.onCommitStep(
          dest,
          conf,
          (step, n) -> {
            String here = step.equals(CommitSteps.COMPLETED) ? step + "#" + n : step;
            if (here.equals(crashAt)) {
              throw new IOException("simulated crash at " + crashAt);
            }
          });
      assertThatThrownBy(job::commit).as(crashAt).hasMessageContaining("simulated crash");
      // the caller's thread names another job and attempt: recovery's requests must name the job
      // they finish, and no attempt
      AuditContext.enterTask("caller-job", "caller-attempt");
      // job commit's completions report from its pool threads
      List<String> stepsAs = Collections.synchronizedList(new ArrayList<>());
      List<CommitRecovery.JobReport> reports;
      CommonAuditContext caller = CommonAuditContext.currentAuditContext();
      try {
        CommitTesting.onCommitStep(
            dest,
            conf,
            (step, n) -> {
              CommonAuditContext c = CommonAuditContext.currentAuditContext();
              stepsAs.add(
                  c.get(AuditConstants.PARAM_JOB_ID)
                      + " "
                      + c.get(AuditConstants.PARAM_TASK_ATTEMPT_ID));
            });
        reports = CommitRecovery.recover(out, conf, false);
        assertThat(
                caller.get(AuditConstants.PARAM_JOB_ID)
                    + " "
                    + caller.get(AuditConstants.PARAM_TASK_ATTEMPT_ID))
            .as("the caller's ids come back after recovery")
            .isEqualTo("caller-job caller-attempt");
      } finally {
        CommitTesting.onCommitStep(dest, conf, null);
        AuditContext.leaveTask();
        caller.remove(AuditConstants.PARAM_JOB_ID);
      }
      boolean decided = !crashAt.equals(CommitSteps.LISTED);
      if (!reports.isEmpty() && reports.get(0).action.equals("committed")) {
        assertThat(stepsAs)
            .as("recovery's requests are tagged with the job it finishes")
            .isNotEmpty()
            .containsOnly(reports.get(0).jobUuid + " null");
      }
      if (decided) {
        assertThat(output(out))
            .as("after recovery from a crash at " + crashAt)
            .containsOnlyKeys(names);
        assertThat(fs().exists(new Path(out, "_SUCCESS"))).isTrue();
        if (!crashAt.equals(CommitSteps.CLEANED)) {
          assertThat(reports).hasSize(1);
          assertThat(reports.get(0).action).isEqualTo("committed");
        }
      } else {
        assertThat(output(out)).as("after recovery from a crash at " + crashAt).isEmpty();
        assertThat(reports).hasSize(1);
        assertThat(reports.get(0).action).isEqualTo("aborted");
      }
      assertThat(CommitTesting.jobDirExists(out, conf, job.id.toString())).isFalse();
      assertPending(0);
      // recovery and job commit are idempotent
      assertThat(CommitRecovery.recover(out, conf, false)).isEmpty();
    }
  }

  @Test
  void conflictModesForTheWholeDirectory() throws Exception {
    Job first = newJob();
    first.setup();
    TaskAttemptContext t = first.task(0, 0);
    String old = first.write(t, "old");
    first.commitTask(t);
    first.commit();

    conf.set(CommitterKeys.CONFLICT_MODE.name(), "fail");
    Job failing = newJob();
    assertThatThrownBy(failing::setup)
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining(dest.toUri().getPath());

    conf.set(CommitterKeys.CONFLICT_MODE.name(), "replace");
    Job replacing = newJob();
    replacing.jobConf.set("mapreduce.output.basename", "new");
    replacing.setup();
    TaskAttemptContext r = replacing.task(0, 0);
    String fresh = replacing.write(r, "new");
    replacing.commitTask(r);
    replacing.commit();
    assertThat(output(dest)).containsOnly(java.util.Map.entry(fresh, "new\n"));
    assertThat(old).isNotEqualTo(fresh);
  }

  @Test
  void conflictModesPerPartition() throws Exception {
    conf.set(CommitterKeys.LAYOUT.name(), "partitioned");
    Job first = newJob();
    first.setup();
    TaskAttemptContext t = first.task(0, 0);
    writeIn(first, t, "p=1", "one-old");
    writeIn(first, t, "p=2", "two-old");
    first.commitTask(t);
    first.commit();

    conf.set(CommitterKeys.CONFLICT_MODE.name(), "fail");
    Job failing = newJob();
    failing.setup();
    TaskAttemptContext f = failing.task(0, 0);
    writeIn(failing, f, "p=1", "clash");
    assertThatThrownBy(() -> failing.commitTask(f))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining("p=1");
    failing.committer(f).abortTask(f);

    conf.set(CommitterKeys.CONFLICT_MODE.name(), "replace");
    Job replacing = newJob();
    replacing.setup();
    TaskAttemptContext r = replacing.task(0, 0);
    writeIn(replacing, r, "p=1", "one-new");
    replacing.commitTask(r);
    replacing.commit();
    assertThat(output(dest))
        .containsOnly(
            java.util.Map.entry("p=1/one-new", "one-new"),
            java.util.Map.entry("p=2/two-old", "two-old"));
  }

  /** A set-up job with 5 MiB parts, so that a few megabytes make a multi-part file. */
  private Job jobWithSmallParts() throws IOException {
    Job job = newJob();
    job.jobConf.set(CommitterKeys.PART_SIZE.name(), "5m");
    job.setup();
    return job;
  }

  /** Creates a file in a task attempt's work directory, setting the attempt up first. */
  private static org.apache.hadoop.fs.FSDataOutputStream create(
      Job job, TaskAttemptContext t, String name) throws IOException {
    PathOutputCommitter c = job.committer(t);
    c.setupTask(t);
    Path file = new Path(c.getWorkPath(), name);
    return file.getFileSystem(t.getConfiguration()).create(file, true);
  }

  @Test
  void largeFileStreamsInParts() throws Exception {
    Job job = jobWithSmallParts();
    TaskAttemptContext t = job.task(0, 0);
    byte[] data = new byte[(12 << 20) + 12345];
    new java.util.Random(7).nextBytes(data);
    byte[] twoParts = java.util.Arrays.copyOf(data, 10 << 20); // ends on a part boundary
    try (org.apache.hadoop.fs.FSDataOutputStream out = create(job, t, "big.bin")) {
      for (int i = 0; i < data.length; i += 100_000) {
        out.write(data, i, Math.min(100_000, data.length - i));
      }
    }
    try (org.apache.hadoop.fs.FSDataOutputStream out = create(job, t, "exact.bin")) {
      out.write(twoParts);
    }
    job.commitTask(t);
    job.commit();
    try (FSDataInputStream in = fs().open(new Path(dest, "big.bin"))) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
    try (FSDataInputStream in = fs().open(new Path(dest, "exact.bin"))) {
      assertThat(in.readAllBytes()).isEqualTo(twoParts);
    }
  }

  /** Part memory is reused from file to file; no byte of an earlier file may reach a later one. */
  @Test
  void reusedPartMemoryNeverCarriesBytesIntoAnotherFile() throws Exception {
    Job job = jobWithSmallParts();
    TaskAttemptContext t = job.task(0, 0);
    int[] sizes = {(10 << 20) + 300_000, (5 << 20) + 1, 3 << 20, (5 << 20) - 1, 1};
    byte[][] contents = new byte[sizes.length][];
    for (int f = 0; f < sizes.length; f++) {
      contents[f] = new byte[sizes[f]];
      new java.util.Random(100 + f).nextBytes(contents[f]);
      try (org.apache.hadoop.fs.FSDataOutputStream out = create(job, t, "reuse-" + f)) {
        int first = Math.min(7, sizes[f]); // a first write smaller than any array
        out.write(contents[f], 0, first);
        out.write(contents[f], first, sizes[f] - first);
      }
      if (f == 0 && committerName().equals("magic")) {
        assertThat(PartBuffers.SHARED.idleCount())
            .as("a closed stream has given its part memory back")
            .isGreaterThanOrEqualTo(10);
      }
    }
    job.commitTask(t);
    job.commit();
    for (int f = 0; f < sizes.length; f++) {
      try (FSDataInputStream in = fs().open(new Path(dest, "reuse-" + f))) {
        assertThat(in.readAllBytes()).as("reuse-%d", f).isEqualTo(contents[f]);
      }
    }
  }

  /** Hadoop's file committer cannot do this: two jobs would share one _temporary directory. */
  @Test
  void twoJobsIntoOneDirectoryWithUniqueFileNames() throws Exception {
    Path shared = new Path(dest, "shared");
    Job c = new Job(shared, conf);
    Job d = new Job(shared, conf);
    c.jobConf.set("mapreduce.output.basename", "job-c");
    d.jobConf.set("mapreduce.output.basename", "job-d");
    c.setup();
    d.setup();
    TaskAttemptContext tc = c.task(0, 0);
    TaskAttemptContext td = d.task(0, 0);
    String fc = c.write(tc, "c");
    String fd = d.write(td, "d");
    c.commitTask(tc);
    d.commitTask(td);
    d.journal();
    c.commit();
    d.commit();
    assertThat(output(shared))
        .containsOnly(java.util.Map.entry(fc, "c\n"), java.util.Map.entry(fd, "d\n"));
  }

  /** Writes a file named like its content into a partition directory of the attempt. */
  private void writeIn(Job job, TaskAttemptContext t, String partition, String content)
      throws IOException {
    PathOutputCommitter c = job.committer(t);
    c.setupTask(t);
    Path file = new Path(new Path(c.getWorkPath(), partition), content);
    FileSystem wfs = file.getFileSystem(t.getConfiguration());
    try (org.apache.hadoop.fs.FSDataOutputStream out = wfs.create(file, true)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }
}
