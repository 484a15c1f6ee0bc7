package dev.dtap.commit;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.JobContext;
import org.apache.hadoop.mapred.OutputCommitter;
import org.apache.hadoop.mapred.TaskAttemptContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/**
 * The dtap committers for jobs on the old MapReduce API ({@code org.apache.hadoop.mapred}), whose
 * output committer is a class rather than a factory:
 *
 * <pre>
 * mapred.output.committer.class = dev.dtap.commit.DataTapMapredCommitter
 * </pre>
 *
 * Each call goes to the committer {@link DataTapCommitterFactory} makes for the job's output path;
 * at task setup the task's work output path is pointed at that committer's work path, which is
 * where the old API's {@code FileOutputFormat} writes.
 */
public class DataTapMapredCommitter extends OutputCommitter {
  /** Created by Hadoop through reflection. */
  public DataTapMapredCommitter() {}

  private static PathOutputCommitter committer(
      org.apache.hadoop.mapreduce.TaskAttemptContext context) throws IOException {
    Path out = FileOutputFormat.getOutputPath(new JobConf(context.getConfiguration()));
    return new DataTapCommitterFactory().createOutputCommitter(out, context);
  }

  /** Job-level calls get a context of the job's setup task, as the AM's own committer has. */
  private static PathOutputCommitter committer(JobContext context) throws IOException {
    TaskAttemptID id = new TaskAttemptID(new TaskID(context.getJobID(), TaskType.JOB_SETUP, 0), 0);
    return committer(new TaskAttemptContextImpl(context.getJobConf(), id));
  }

  @Override
  public void setupJob(JobContext context) throws IOException {
    committer(context).setupJob(context);
  }

  @Override
  public void commitJob(JobContext context) throws IOException {
    committer(context).commitJob(context);
  }

  @Override
  public void abortJob(JobContext context, int runState) throws IOException {
    JobStatus.State[] states = JobStatus.State.values(); // RUNNING=1 ... KILLED=5, in order
    JobStatus.State state =
        runState >= 1 && runState <= states.length ? states[runState - 1] : JobStatus.State.FAILED;
    committer(context).abortJob(context, state);
  }

  @Override
  public void cleanupJob(JobContext context) throws IOException {
    committer(context).cleanupJob(context);
  }

  @Override
  public void setupTask(TaskAttemptContext context) throws IOException {
    PathOutputCommitter c = committer(context);
    c.setupTask(context);
    Path work = c.getWorkPath();
    if (work != null) {
      FileOutputFormat.setWorkOutputPath(context.getJobConf(), work);
    }
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) throws IOException {
    return committer(context).needsTaskCommit(context);
  }

  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    committer(context).commitTask(context);
  }

  @Override
  public void abortTask(TaskAttemptContext context) throws IOException {
    committer(context).abortTask(context);
  }

  @Override
  public boolean isRecoverySupported() {
    return true;
  }

  @Override
  public boolean isRecoverySupported(JobContext context) throws IOException {
    return committer(context).isRecoverySupported(context);
  }

  @Override
  public boolean isCommitJobRepeatable(JobContext context) throws IOException {
    return committer(context).isCommitJobRepeatable(context);
  }

  @Override
  public void recoverTask(TaskAttemptContext context) throws IOException {
    committer(context).recoverTask(context);
  }
}
