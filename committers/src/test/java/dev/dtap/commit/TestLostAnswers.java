package dev.dtap.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.store.ObjectInfo;
import dev.dtap.commit.store.StoreStatistics.Op;
import dev.dtap.commit.testing.LocalMultipartStore;
import dev.dtap.commit.testing.LocalStoreFactory;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
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
 * A request the store carried out whose answer was lost, on the local store that answers the
 * client's repeat as S3 does: a task's record is written once, not once more under the next
 * generation; a complete whose upload is gone is recognised as done by its object; and a complete
 * meeting an earlier complete of the same upload still under way waits for its object rather than
 * failing a job that is whole; and an upload an initiate sent twice started, whose id nobody
 * learned, is aborted when the job ends. MinIO through a proxy that drops answers:
 * ITestCommitterLostAnswers.
 */
class TestLostAnswers {
  private static final int TASKS = 3;
  private static int taps;

  private File root;
  private LocalMultipartStore store;
  private Configuration conf;
  private Path dest;

  private void setUp(String committer) throws IOException {
    root = LocalTaps.newDir("lost-answers");
    store = LocalStoreFactory.storeFor(root.toPath());
    // a tap name of its own: filesystems are cached by it, and each test has its own root
    String tap = "lost" + (++taps);
    dest = new Path("dtap://" + tap + "/out");
    conf =
        CommitTesting.bindCommitter(
            LocalTaps.addTap(LocalCommitProtocolSupport.conf(), tap, root), committer, dest);
  }

  /** Runs a job of {@link #TASKS} tasks; returns the task records there were before job commit. */
  private List<String> runJob() throws Exception {
    JobID id = new JobID("2026" + ThreadLocalRandom.current().nextInt(100000, 999999), 1);
    JobContext job = new JobContextImpl(conf, id);
    PathOutputCommitter am = PathOutputCommitterFactory.createCommitter(dest, attempt(id, 0));
    am.setupJob(job);
    for (int t = 0; t < TASKS; t++) {
      TaskAttemptContext ctx = attempt(id, t);
      PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, ctx);
      c.setupTask(ctx);
      Path file = new Path(c.getWorkPath(), "part-" + t);
      try (FSDataOutputStream out = file.getFileSystem(conf).create(file, true)) {
        out.write(CommitTesting.taskLine(t).getBytes(StandardCharsets.UTF_8));
      }
      c.commitTask(ctx);
    }
    List<String> records = new ArrayList<>();
    RemoteIterator<ObjectInfo> it = store.list(root.getAbsolutePath().substring(1) + "/out/");
    while (it.hasNext()) {
      String key = it.next().key();
      if (key.contains("/tasks/")) {
        records.add(key);
      }
    }
    am.commitJob(job);
    return records;
  }

  private TaskAttemptContext attempt(JobID id, int task) {
    return new TaskAttemptContextImpl(
        conf, new TaskAttemptID(new TaskID(id, TaskType.MAP, task), 0));
  }

  private void assertWholeOutput() throws IOException {
    CommitTesting.assertTaskFiles(dest, conf, TASKS);
    assertThat(store.pendingUploads()).as("uploads left pending").isEmpty();
  }

  @ParameterizedTest(name = "{0} committer")
  @ValueSource(strings = {"magic", "staging"})
  void aRecordWhosePutWasAnsweredLostIsWrittenOnce(String committer) throws Exception {
    setUp(committer);
    // the first conditional put is job setup's probe, which checks its own content already
    store.loseAnswerOn(Op.PUT, 3);
    List<String> records = runJob();
    assertThat(records).as("task records, one per task").hasSize(TASKS);
    assertThat(records).allMatch(k -> k.endsWith("/00000"), "generation 0");
    assertWholeOutput();
  }

  @ParameterizedTest(name = "{0} committer")
  @ValueSource(strings = {"magic", "staging"})
  void aCompleteWhoseAnswerWasLostIsRecognisedAsDone(String committer) throws Exception {
    setUp(committer);
    store.loseAnswerOn(Op.COMPLETE, 2);
    runJob();
    assertWholeOutput();
  }

  @ParameterizedTest(name = "{0} committer")
  @ValueSource(strings = {"magic", "staging"})
  void aCompleteMeetingAnEarlierOneStillUnderWayWaitsForItsObject(String committer)
      throws Exception {
    setUp(committer);
    store.stillCompletingOn(2);
    runJob();
    assertWholeOutput();
  }

  @ParameterizedTest(name = "{0} committer")
  @ValueSource(strings = {"magic", "staging"})
  void anUploadStartedByAnInitiateSentTwiceIsAbortedAtTheJobsEnd(String committer)
      throws Exception {
    setUp(committer);
    store.resendInitiateOn(2);
    runJob();
    assertWholeOutput();
  }
}
