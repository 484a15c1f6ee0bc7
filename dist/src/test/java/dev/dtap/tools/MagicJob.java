package dev.dtap.tools;

import dev.dtap.commit.DataTapCommitterFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/**
 * A job on the dtap magic committer, driven as MapReduce drives one: set up, one task writes {@code
 * part-0}; the test then commits it or lets it die uncommitted (a pending upload left behind).
 */
final class MagicJob {
  final PathOutputCommitter committer;
  final TaskAttemptContext task;
  private final JobID job;

  /**
   * Binds the dtap committers in {@code conf}, sets the job up and writes one file in its task.
   *
   * @throws IOException if the committer cannot be created or the file written
   */
  MagicJob(Configuration conf, Path dest, JobID job, String text) throws IOException {
    conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", DataTapCommitterFactory.class.getName());
    conf.set("fs.dtap.committer.name", "magic");
    this.job = job;
    this.task =
        new TaskAttemptContextImpl(conf, new TaskAttemptID(new TaskID(job, TaskType.MAP, 0), 0));
    this.committer = PathOutputCommitterFactory.createCommitter(dest, task);
    committer.setupJob(task);
    committer.setupTask(task);
    Path file = new Path(committer.getWorkPath(), "part-0");
    try (FSDataOutputStream out = file.getFileSystem(conf).create(file, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Commits the task and the job. */
  void commit() throws IOException {
    committer.commitTask(task);
    committer.commitJob(new JobContextImpl(task.getConfiguration(), job));
  }
}
