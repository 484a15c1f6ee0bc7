package dev.dtap.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.job.CommitRecovery;
import dev.dtap.commit.store.StoreStatistics.Op;
import dev.dtap.commit.testing.LocalMultipartStore;
import dev.dtap.commit.testing.LocalStoreFactory;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An attempt killed (SIGKILL) after its initiate reached the store and before its journal entry was
 * written leaves an upload that no journal names. The state it leaves is made here directly: an
 * upload initiated at the key of the task's file, with nothing else. The task runs again as a later
 * attempt, writing the same file; the job's commit, or its abort, leaves no upload pending. An
 * attempt that runs on after its job was committed (a zombie) leaves a job directory without a
 * commit intent, which {@code dtap committer recover} aborts.
 */
class TestKilledAttempts {
  private static final int TASKS = 3;
  private static final int KILLED_TASK = 1;
  private static int taps;

  private File root;
  private LocalMultipartStore store;
  private Configuration conf;
  private Path dest;
  private JobContext job;
  private PathOutputCommitter am;
  private JobID id;

  private void setUp(String committer) throws Exception {
    root = LocalTaps.newDir("killed-attempts");
    store = LocalStoreFactory.storeFor(root.toPath());
    String tap = "killed" + (++taps);
    dest = new Path("dtap://" + tap + "/out");
    conf =
        CommitTesting.bindCommitter(
            LocalTaps.addTap(LocalCommitProtocolSupport.conf(), tap, root), committer, dest);
    id = new JobID("2026" + ThreadLocalRandom.current().nextInt(100000, 999999), 1);
    job = new JobContextImpl(conf, id);
    am = PathOutputCommitterFactory.createCommitter(dest, attempt(0, 0));
    am.setupJob(job);
  }

  private TaskAttemptContext attempt(int task, int attempt) {
    return new TaskAttemptContextImpl(
        conf, new TaskAttemptID(new TaskID(id, TaskType.MAP, task), attempt));
  }

  private String keyOf(String file) {
    return root.getAbsolutePath().substring(1) + "/out/" + file;
  }

  /** Writes the task's files as one attempt; commits the task if asked. */
  private void runAttempt(int task, int attempt, boolean commit, String... extraFiles)
      throws IOException {
    TaskAttemptContext ctx = attempt(task, attempt);
    PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, ctx);
    c.setupTask(ctx);
    FileSystem fs = c.getWorkPath().getFileSystem(conf);
    try (FSDataOutputStream out = fs.create(new Path(c.getWorkPath(), "part-" + task), true)) {
      out.write(CommitTesting.taskLine(task).getBytes(StandardCharsets.UTF_8));
    }
    for (String name : extraFiles) {
      try (FSDataOutputStream out = fs.create(new Path(c.getWorkPath(), name), true)) {
        out.write(name.getBytes(StandardCharsets.UTF_8));
      }
    }
    if (commit) {
      c.commitTask(ctx);
    }
  }

  private void runTasks() throws IOException {
    for (int t = 0; t < TASKS; t++) {
      runAttempt(t, t == KILLED_TASK ? 1 : 0, true);
    }
  }

  @ParameterizedTest(name = "{0} committer")
  @ValueSource(strings = {"magic", "staging"})
  void jobCommitAbortsWhatAnAttemptKilledBeforeItsEntryLeft(String committer) throws Exception {
    setUp(committer);
    store.initiate(keyOf("part-" + KILLED_TASK)); // attempt 0, killed before its entry
    runTasks();
    assertThat(store.pendingUploads()).as("pending before job commit").hasSize(TASKS + 1);

    am.commitJob(job);

    CommitTesting.assertTaskFiles(dest, conf, TASKS);
    assertThat(store.pendingUploads()).as("uploads left pending").isEmpty();
  }

  @ParameterizedTest(name = "{0} committer")
  @ValueSource(strings = {"magic", "staging"})
  void jobCommitAbortsAKilledAttemptsJournaledAndUnjournaledUploads(String committer)
      throws Exception {
    setUp(committer);
    // attempt 0 wrote a file of its own (journaled, never committed), then was killed while
    // starting the task's main file
    runAttempt(KILLED_TASK, 0, false, "extra-" + KILLED_TASK);
    store.initiate(keyOf("part-" + KILLED_TASK));
    runTasks();

    am.commitJob(job);

    CommitTesting.assertTaskFiles(dest, conf, TASKS);
    try (FileSystem fs = FileSystem.newInstance(dest.toUri(), conf)) {
      assertThat(fs.exists(new Path(dest, "extra-" + KILLED_TASK)))
          .as("the killed attempt's own file")
          .isFalse();
    }
    assertThat(store.pendingUploads()).as("uploads left pending").isEmpty();
  }

  @ParameterizedTest(name = "{0} committer")
  @ValueSource(strings = {"magic", "staging"})
  void jobAbortAbortsWhatAnAttemptKilledBeforeItsEntryLeft(String committer) throws Exception {
    setUp(committer);
    store.initiate(keyOf("part-" + KILLED_TASK));
    runTasks();

    am.abortJob(job, JobStatus.State.FAILED);

    assertThat(store.pendingUploads()).as("uploads left pending").isEmpty();
    try (FileSystem fs = FileSystem.newInstance(dest.toUri(), conf)) {
      assertThat(fs.exists(new Path(dest, "part-0"))).as("output of an aborted job").isFalse();
    }
  }

  @ParameterizedTest(name = "{0} committer")
  @ValueSource(strings = {"magic", "staging"})
  void aTaskWithOneAttemptCostsNoListing(String committer) throws Exception {
    setUp(committer);
    for (int t = 0; t < TASKS; t++) {
      runAttempt(t, 0, true);
    }
    long listingsBefore = store.statistics().requests(Op.LIST_UPLOADS);

    am.commitJob(job);

    CommitTesting.assertTaskFiles(dest, conf, TASKS);
    assertThat(store.statistics().requests(Op.LIST_UPLOADS) - listingsBefore)
        .as("listings of pending uploads")
        .isZero();
  }

  @ParameterizedTest(name = "{0} committer")
  @ValueSource(strings = {"magic", "staging"})
  void whatAZombieStartsAfterJobCommitIsAbortedByRecovery(String committer) throws Exception {
    setUp(committer);
    runTasks();
    am.commitJob(job);
    // attempt 0 of the retried task was given up for dead, but runs on: it writes its file again,
    // into the directory of a job that has ended
    runAttempt(KILLED_TASK, 0, true);
    assertThat(store.pendingUploads()).as("the zombie's upload").hasSize(1);

    List<CommitRecovery.JobReport> reports = CommitRecovery.recover(dest, conf, false);

    assertThat(reports).as("jobs recovery found").hasSize(1);
    assertThat(reports.get(0).action).isEqualTo("aborted");
    assertThat(store.pendingUploads()).as("uploads left pending").isEmpty();
    CommitTesting.assertTaskFiles(dest, conf, TASKS);
  }
}
