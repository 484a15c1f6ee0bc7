package dev.dtap.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.config.CommitterKeys;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
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
import org.junit.jupiter.api.Test;

/**
 * What the committers keep in a JVM between a task's writes and its commit: nothing outlives the
 * attempt (a long-lived executor runs thousands), and a task committed through another filesystem
 * instance than the one it wrote with still commits exactly its files, or fails saying why.
 */
class TestCommitterState {
  private static Configuration conf() throws IOException {
    Configuration conf = LocalCommitProtocolSupport.conf();
    // a tap of its own: what other tests of this JVM leave on theirs is not counted here
    dev.dtap.fs.testing.LocalTaps.addTap(
        conf, "state", dev.dtap.fs.testing.LocalTaps.newDir("state-root"));
    conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", DataTapCommitterFactory.class.getName());
    conf.set(CommitterKeys.NAME.name(), "magic");
    return conf;
  }

  private static TaskAttemptContext attempt(Configuration conf, JobID job, int task, int attempt) {
    return new TaskAttemptContextImpl(
        conf, new TaskAttemptID(new TaskID(job, TaskType.MAP, task), attempt));
  }

  private static void write(FileSystem fs, Path file, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String read(FileSystem fs, Path file) throws IOException {
    try (FSDataInputStream in = fs.open(file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void nothingIsLeftOfAThousandTasks() throws Exception {
    Configuration conf = conf();
    Path dest = new Path("dtap://state/thousand");
    conf.set(FileOutputFormat.OUTDIR, dest.toString());
    JobID job = new JobID("2026112401", 1);
    JobContext jobContext = new JobContextImpl(conf, job);
    PathOutputCommitterFactory.createCommitter(dest, attempt(conf, job, 0, 0)).setupJob(jobContext);
    for (int t = 0; t < 1000; t++) {
      TaskAttemptContext ctx = attempt(conf, job, t, 0);
      PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, ctx);
      c.setupTask(ctx);
      Path file = new Path(c.getWorkPath(), "part-" + t);
      write(file.getFileSystem(conf), file, "t" + t);
      if (t % 10 == 9) {
        c.abortTask(ctx); // a tenth fail
      } else {
        c.commitTask(ctx);
      }
    }
    assertThat(CommitTesting.attemptsHeld(dest, conf))
        .as("task attempts the committers still hold")
        .isZero();
    PathOutputCommitterFactory.createCommitter(dest, attempt(conf, job, 0, 0))
        .commitJob(jobContext);
    FileSystem fs = dest.getFileSystem(conf);
    assertThat(read(fs, new Path(dest, "part-0"))).isEqualTo("t0");
    assertThat(fs.exists(new Path(dest, "part-9"))).as("an aborted task's file").isFalse();
    assertThat(fs.listStatus(dest, p -> p.getName().startsWith("part-"))).hasSize(900);
  }

  @Test
  void withTheFilesystemCacheOffTaskCommitFindsFilesWrittenThroughAnotherInstance()
      throws Exception {
    Configuration conf = conf();
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    Path dest = LocalCommitProtocolSupport.newDestination();
    conf.set(FileOutputFormat.OUTDIR, dest.toString());
    JobID job = new JobID("2026112402", 2);
    JobContext jobContext = new JobContextImpl(conf, job);
    PathOutputCommitterFactory.createCommitter(dest, attempt(conf, job, 0, 0)).setupJob(jobContext);
    TaskAttemptContext ctx = attempt(conf, job, 0, 0);
    PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, ctx);
    Path file = new Path(c.getWorkPath(), "part-0");
    try (FileSystem writer = FileSystem.newInstance(URI.create("dtap://commit/"), conf)) {
      write(writer, file, "first");
      write(writer, file, "second"); // the later upload of a file wins
    }
    assertThat(c.needsTaskCommit(ctx))
        .as("an attempt that wrote through another instance")
        .isTrue();
    c.commitTask(ctx);
    PathOutputCommitterFactory.createCommitter(dest, ctx).commitJob(jobContext);
    try (FileSystem fs = FileSystem.newInstance(URI.create("dtap://commit/"), conf)) {
      assertThat(read(fs, new Path(dest, "part-0"))).isEqualTo("second");
    }
  }

  @Test
  void withTheCacheOnAWriterInAnotherInstanceIsRefusedClearly() throws Exception {
    Configuration conf = conf();
    Path dest = LocalCommitProtocolSupport.newDestination();
    conf.set(FileOutputFormat.OUTDIR, dest.toString());
    JobID job = new JobID("2026112403", 3);
    PathOutputCommitterFactory.createCommitter(dest, attempt(conf, job, 0, 0))
        .setupJob(new JobContextImpl(conf, job));
    TaskAttemptContext ctx = attempt(conf, job, 0, 0);
    PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, ctx);
    try (FileSystem writer = FileSystem.newInstance(URI.create("dtap://commit/"), conf)) {
      write(writer, new Path(c.getWorkPath(), "part-0"), "x");
    }
    assertThat(c.needsTaskCommit(ctx)).as("so that its commit says what is wrong").isTrue();
    assertThatThrownBy(() -> c.commitTask(ctx))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("another process, or through another dtap filesystem instance");
  }
}
