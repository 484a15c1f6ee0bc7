package dev.dtap.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.commit.job.CommitRecovery;
import dev.dtap.commit.tap.CommitSteps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark's dynamic partition overwrite as Spark drives it (its output directory a staging directory
 * under the destination, its write uuid, task JobIDs unrelated to the driver's, a driver job
 * context without a JobID): exactly the partitions the job wrote are replaced, the others stay, and
 * a commit that stopped half way is finished by recovery with the same partitions, whatever the
 * recovering process's settings.
 */
class TestDynamicPartitionOverwrite {
  private static final String UUID = "6f1c2a9e-4d7b-4c55-9a1e-2b3c4d5e6f70";

  private Configuration conf;
  private Path dest;

  private void setUp(String committer) throws IOException {
    conf = LocalCommitProtocolSupport.conf();
    conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", DataTapCommitterFactory.class.getName());
    conf.set(CommitterKeys.NAME.name(), committer);
    dest = LocalCommitProtocolSupport.newDestination();
    FileSystem fs = dest.getFileSystem(conf);
    for (String p : new String[] {"p=1/old-1", "p=1/old-2", "p=2/old", "p=3/old"}) {
      write(fs, new Path(dest, p), "old " + p);
    }
  }

  private static void write(FileSystem fs, Path file, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The job's configuration as Spark hands it to the committer in a dynamic overwrite. */
  private Configuration sparkJob() {
    Configuration c = new Configuration(conf);
    c.set(DtapCommitter.SPARK_UUID, UUID);
    c.set(FileOutputFormat.OUTDIR, new Path(dest, ".spark-staging-" + UUID).toString());
    return c;
  }

  private TreeMap<String, String> output() throws IOException {
    FileSystem fs = dest.getFileSystem(conf);
    TreeMap<String, String> out = new TreeMap<>();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(dest, true);
    String base = fs.makeQualified(dest).toUri().getPath();
    while (it.hasNext()) {
      Path p = it.next().getPath();
      String rel = p.toUri().getPath().substring(base.length() + 1);
      if (rel.startsWith("_") || rel.contains("/_")) {
        continue;
      }
      try (FSDataInputStream in = fs.open(p)) {
        out.put(rel, new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /** Runs the tasks: partition p=1 and new p=4 get new files; returns the driver's committer. */
  private PathOutputCommitter runTasks(Configuration job) throws Exception {
    // the driver: a fake attempt of its own job id, as Spark's setupJob makes
    JobID driverJob = new JobID("20261124080000", 0);
    PathOutputCommitter driver =
        PathOutputCommitterFactory.createCommitter(
            dest,
            new TaskAttemptContextImpl(
                job, new TaskAttemptID(new TaskID(driverJob, TaskType.MAP, 0), 0)));
    assertThat(
            ((StreamCapabilities) driver)
                .hasCapability("mapreduce.job.committer.dynamic.partitioning"))
        .as("the capability Spark asks for")
        .isTrue();
    driver.setupJob(new JobContextImpl(job, null));
    // the tasks: another tracker, the stage's number, Spark's global attempt numbers
    JobID stageJob = new JobID("20261124080001", 3);
    String[][] tasks = {{"p=1/new-a"}, {"p=4/new-b", "p=1/new-c"}};
    for (int t = 0; t < tasks.length; t++) {
      TaskAttemptContext ctx =
          new TaskAttemptContextImpl(
              job, new TaskAttemptID(new TaskID(stageJob, TaskType.MAP, t), 1000 + t));
      PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, ctx);
      c.setupTask(ctx);
      for (String f : tasks[t]) {
        Path file = new Path(c.getWorkPath(), f);
        write(file.getFileSystem(job), file, "new " + f);
      }
      c.commitTask(ctx);
    }
    return driver;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"magic", "staging"})
  void exactlyThePartitionsWrittenAreReplaced(String committer) throws Exception {
    setUp(committer);
    Configuration job = sparkJob();
    PathOutputCommitter driver = runTasks(job);
    driver.commitJob(new JobContextImpl(job, null));
    assertThat(output())
        .containsOnlyKeys("p=1/new-a", "p=1/new-c", "p=2/old", "p=3/old", "p=4/new-b")
        .containsEntry("p=2/old", "old p=2/old")
        .containsEntry("p=4/new-b", "new p=4/new-b");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"magic", "staging"})
  void aCommitStoppedHalfWayIsFinishedByRecoveryForTheSamePartitions(String committer)
      throws Exception {
    setUp(committer);
    Configuration job = sparkJob();
    PathOutputCommitter driver = runTasks(job);
    CommitTesting.onCommitStep(
        dest,
        conf,
        (step, count) -> {
          if (step.equals(CommitSteps.REPLACED)) {
            throw new IOException("driver lost after replacing");
          }
        });
    try {
      assertThatThrownBy(() -> driver.commitJob(new JobContextImpl(job, null)))
          .hasMessageContaining("driver lost");
    } finally {
      CommitTesting.onCommitStep(dest, conf, null);
    }
    // recovery in another process knows nothing of Spark: the intent says what to replace
    assertThat(CommitRecovery.recover(dest, conf, false)).hasSize(1);
    assertThat(output())
        .containsOnlyKeys("p=1/new-a", "p=1/new-c", "p=2/old", "p=3/old", "p=4/new-b");
  }
}
