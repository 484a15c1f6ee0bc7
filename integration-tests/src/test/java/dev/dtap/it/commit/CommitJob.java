package dev.dtap.it.commit;

import dev.dtap.commit.CommitTesting;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
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

/**
 * A small job driven through Hadoop's committer API as MapReduce drives it: job setup, tasks that
 * write one text file each and commit, then job commit; with a pause between the last task commit
 * and job commit so a test can look at what the tasks left on the store.
 */
final class CommitJob {
  private static int jobs;

  private final Configuration conf;
  private final Path dest;
  private final JobID id;

  CommitJob(Configuration conf, Path dest) {
    this.conf = new Configuration(conf);
    this.conf.set(FileOutputFormat.OUTDIR, dest.toString());
    this.conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", "dev.dtap.commit.DataTapCommitterFactory");
    this.dest = dest;
    synchronized (CommitJob.class) {
      this.id = new JobID("2026" + (100000 + (++jobs)), jobs);
    }
  }

  /**
   * @return the job's id, which the committers use as its unique id
   */
  JobID id() {
    return id;
  }

  /** Something to do between the tasks' commits and job commit. */
  interface BeforeJobCommit {
    void run() throws Exception;
  }

  /**
   * Runs the job.
   *
   * @param tasks how many tasks, each writing {@code part-<task>} with one line
   * @param between run after every task committed, before job commit
   * @return the files' names and their content, as committed
   * @throws Exception if a step fails
   */
  List<String> run(int tasks, BeforeJobCommit between) throws Exception {
    JobContext job = new JobContextImpl(conf, id);
    PathOutputCommitter am = PathOutputCommitterFactory.createCommitter(dest, attempt(0));
    am.setupJob(job);
    List<String> names = new ArrayList<>();
    for (int t = 0; t < tasks; t++) {
      TaskAttemptContext ctx = attempt(t);
      PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, ctx);
      c.setupTask(ctx);
      Path file = new Path(c.getWorkPath(), "part-" + t);
      FileSystem fs = file.getFileSystem(conf);
      try (FSDataOutputStream out = fs.create(file, true)) {
        out.write(CommitTesting.taskLine(t).getBytes(StandardCharsets.UTF_8));
      }
      if (c.needsTaskCommit(ctx)) {
        c.commitTask(ctx);
      }
      names.add("part-" + t);
    }
    between.run();
    am.commitJob(job);
    return names;
  }

  private TaskAttemptContext attempt(int task) {
    return new TaskAttemptContextImpl(
        conf, new TaskAttemptID(new TaskID(id, TaskType.MAP, task), 0));
  }
}
