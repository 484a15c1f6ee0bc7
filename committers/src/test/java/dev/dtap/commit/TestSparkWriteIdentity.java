package dev.dtap.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.config.CommitterKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
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
 * A Spark write in the order Spark 4.2 runs it: the driver's committer is made and the job set up
 * from a configuration without the write uuid (job id {@code job_<time>_0000}); the uuid is put
 * into the job's configuration afterwards, so every task knows the job by the uuid, and job commit
 * or abort gets a context that carries it. The job's output is the tasks' output.
 */
class TestSparkWriteIdentity {
  private static final String UUID = "0b7f3c1d-5e2a-4f68-8c9d-1a2b3c4d5e6f";

  private Configuration setupConf;
  private Configuration jobConf;
  private Path dest;

  private void setUp(String committer) throws IOException {
    setupConf = LocalCommitProtocolSupport.conf();
    setupConf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", DataTapCommitterFactory.class.getName());
    setupConf.set(CommitterKeys.NAME.name(), committer);
    dest = LocalCommitProtocolSupport.newDestination();
    jobConf = new Configuration(setupConf);
    jobConf.set(DtapCommitter.SPARK_UUID, UUID);
  }

  /**
   * Sets the job up as Spark 4.2's driver does and runs two tasks; returns the driver's committer.
   */
  private PathOutputCommitter setUpJobAndRunTasks() throws Exception {
    JobID driverJob = new JobID("20261124093000", 0);
    TaskAttemptContext driverCtx =
        new TaskAttemptContextImpl(
            setupConf, new TaskAttemptID(new TaskID(driverJob, TaskType.MAP, 0), 0));
    PathOutputCommitter driver = PathOutputCommitterFactory.createCommitter(dest, driverCtx);
    driver.setupJob(driverCtx);
    JobID stageJob = new JobID("20261124093001", 7);
    for (int t = 0; t < 2; t++) {
      TaskAttemptContext ctx =
          new TaskAttemptContextImpl(
              jobConf, new TaskAttemptID(new TaskID(stageJob, TaskType.MAP, t), t));
      PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, ctx);
      c.setupTask(ctx);
      Path file = new Path(c.getWorkPath(), "p=" + t + "/part-" + t);
      try (FSDataOutputStream out = file.getFileSystem(jobConf).create(file, false)) {
        out.write(("task " + t).getBytes(StandardCharsets.UTF_8));
      }
      c.commitTask(ctx);
    }
    return driver;
  }

  /** Every file under the destination (the fake store leaves empty directories behind). */
  private List<String> files() throws IOException {
    FileSystem fs = dest.getFileSystem(setupConf);
    List<String> names = new ArrayList<>();
    if (!fs.exists(dest)) {
      return names;
    }
    String base = fs.makeQualified(dest).toUri().getPath() + "/";
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(dest, true);
    while (it.hasNext()) {
      names.add(it.next().getPath().toUri().getPath().substring(base.length()));
    }
    return names;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"magic", "staging"})
  void jobCommitPublishesWhatTheTasksWroteUnderTheWriteUuid(String committer) throws Exception {
    setUp(committer);
    PathOutputCommitter driver = setUpJobAndRunTasks();
    driver.commitJob(new JobContextImpl(jobConf, null));
    assertThat(files()).containsExactlyInAnyOrder("p=0/part-0", "p=1/part-1", "_SUCCESS");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"magic", "staging"})
  void jobAbortDiscardsWhatTheTasksWroteUnderTheWriteUuid(String committer) throws Exception {
    setUp(committer);
    PathOutputCommitter driver = setUpJobAndRunTasks();
    driver.abortJob(new JobContextImpl(jobConf, null), JobStatus.State.FAILED);
    assertThat(files()).isEmpty();
  }
}
