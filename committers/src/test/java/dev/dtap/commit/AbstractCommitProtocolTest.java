package dev.dtap.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.config.CommitterKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.MapFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.MapFileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The commit protocol scenarios Hadoop's committer tests cover, written in our own code for any
 * committer the dtap factory makes (magic and staging on an object store, Hadoop's file committer
 * on HDFS): what becomes visible when, repeated and competing task commits, empty tasks, aborts,
 * jobs side by side, MapFile output. {@link AbstractDtapCommitProtocolTest} adds the dtap
 * committers' own guarantees.
 */
public abstract class AbstractCommitProtocolTest {
  private static int jobCounter;

  protected Configuration conf;
  protected Path dest;

  /**
   * @return "magic", "staging" or "file"
   */
  protected abstract String committerName();

  /**
   * @return a configuration with a writable tap whose backend has a multipart store
   */
  protected abstract Configuration newConfiguration() throws Exception;

  /**
   * @return a fresh, absent directory on that tap
   */
  protected abstract Path newDestination() throws Exception;

  @BeforeEach
  void setUpJob() throws Exception {
    conf = newConfiguration();
    conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", DataTapCommitterFactory.class.getName());
    conf.set(CommitterKeys.NAME.name(), committerName());
    dest = newDestination();
  }

  // ---- what differs between committers

  /** Notes what a job has started on the store, for {@link #assertPending}; nothing by default. */
  protected void recordUploads(Job job) throws IOException {}

  /** Asserts how many of the recorded uploads are still pending; nothing to check by default. */
  protected void assertPending(int expected) throws IOException {}

  /** Asserts that a committed job left its marker. */
  protected void assertSuccessMarker(Job job, int files) throws IOException {
    assertThat(fs().exists(new Path(job.out, "_SUCCESS"))).as("_SUCCESS").isTrue();
  }

  /** Asserts that a finished job left none of its working data. */
  protected void assertJobDataGone(Job job) throws IOException {
    assertThat(fs().exists(new Path(job.out, "_temporary"))).as("_temporary left").isFalse();
  }

  // ---- a job, its tasks and their output

  /** A job of this test: its id, configuration and contexts. */
  protected final class Job {
    public final JobID id;
    public final Configuration jobConf;
    public final Path out;

    public Job(Path out, Configuration base) {
      this.id =
          new JobID("2026" + ThreadLocalRandom.current().nextInt(100000, 999999), ++jobCounter);
      this.jobConf = new Configuration(base);
      this.out = out;
      jobConf.set(FileOutputFormat.OUTDIR, out.toString());
    }

    JobContext context() {
      return new JobContextImpl(jobConf, id);
    }

    TaskAttemptContext task(int task, int attempt) {
      return new TaskAttemptContextImpl(
          jobConf, new TaskAttemptID(new TaskID(id, TaskType.MAP, task), attempt));
    }

    PathOutputCommitter committer(TaskAttemptContext t) throws IOException {
      return PathOutputCommitterFactory.createCommitter(out, t);
    }

    /** Sets up the job through the committer the AM would have. */
    PathOutputCommitter setup() throws IOException {
      PathOutputCommitter c = committer(task(0, 0));
      c.setupJob(context());
      return c;
    }

    /** Sets up a task attempt, writes one text file into it and returns its final name. */
    String write(TaskAttemptContext t, String... lines) throws IOException, InterruptedException {
      PathOutputCommitter c = committer(t);
      c.setupTask(t);
      RecordWriter<Text, Text> w = new TextOutputFormat<Text, Text>().getRecordWriter(t);
      for (String l : lines) {
        w.write(new Text(l), null);
      }
      w.close(t);
      Path file = new TextOutputFormat<Text, Text>().getDefaultWorkFile(t, "");
      return file.getName();
    }

    void commitTask(TaskAttemptContext t) throws IOException {
      PathOutputCommitter c = committer(t);
      if (c.needsTaskCommit(
          t)) { // as MapReduce asks: the file committer skips tasks without output
        c.commitTask(t);
      }
    }

    void commit() throws IOException {
      recordUploads(this);
      committer(task(0, 0)).commitJob(context());
    }

    void journal() throws IOException {
      recordUploads(this);
    }
  }

  protected Job newJob() {
    return new Job(dest, conf);
  }

  protected FileSystem fs() throws IOException {
    return dest.getFileSystem(conf);
  }

  /**
   * @return visible output under a directory: relative path to content
   */
  protected TreeMap<String, String> output(Path dir) throws IOException {
    TreeMap<String, String> out = new TreeMap<>();
    if (!fs().exists(dir)) {
      return out;
    }
    org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> it =
        fs().listFiles(dir, true);
    String base = fs().makeQualified(dir).toUri().getPath();
    while (it.hasNext()) {
      FileStatus s = it.next();
      String rel = s.getPath().toUri().getPath().substring(base.length() + 1);
      if (("/" + rel).contains("/_") || ("/" + rel).contains("/.")) {
        continue; // commit data, markers and hidden files are not output
      }
      try (FSDataInputStream in = fs().open(s.getPath())) {
        out.put(rel, new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  // ---- scenarios

  @Test
  void nothingVisibleAfterTaskCommitEverythingAfterJobCommit() throws Exception {
    Job job = newJob();
    job.setup();
    TaskAttemptContext t0 = job.task(0, 0);
    TaskAttemptContext t1 = job.task(1, 0);
    String f0 = job.write(t0, "alpha", "beta");
    String f1 = job.write(t1, "gamma");
    job.commitTask(t0);
    job.commitTask(t1);
    job.journal();
    assertThat(output(dest)).as("visible before job commit").isEmpty();
    assertPending(2);
    job.commit();
    assertThat(output(dest))
        .containsOnlyKeys(f0, f1)
        .containsEntry(f0, "alpha\nbeta\n")
        .containsEntry(f1, "gamma\n");
    assertSuccessMarker(job, 2);
    assertJobDataGone(job);
  }

  @Test
  void repeatedTaskCommitCommitsOnce() throws Exception {
    Job job = newJob();
    job.setup();
    TaskAttemptContext t = job.task(0, 0);
    String f = job.write(t, "once");
    job.commitTask(t);
    job.commitTask(t);
    job.commit();
    assertThat(output(dest)).containsOnly(java.util.Map.entry(f, "once\n"));
  }

  @Test
  void secondAttemptOfATaskWinsAndTheFirstLeavesNothing() throws Exception {
    Job job = newJob();
    job.setup();
    TaskAttemptContext a0 = job.task(0, 0);
    TaskAttemptContext a1 = job.task(0, 1);
    a1.getConfiguration().set("mapreduce.output.basename", "attempt1");
    String first = job.write(a0, "from attempt 0");
    String second = job.write(a1, "from attempt 1");
    assertThat(first).isNotEqualTo(second);
    job.commitTask(a0);
    job.commitTask(a1); // the first attempt's commit was not acknowledged: the task ran again
    job.commit();
    assertThat(output(dest)).containsOnly(java.util.Map.entry(second, "from attempt 1\n"));
  }

  @Test
  void emptyTaskCommits() throws Exception {
    Job job = newJob();
    job.setup();
    TaskAttemptContext t = job.task(0, 0);
    job.committer(t).setupTask(t);
    job.commitTask(t);
    job.commit();
    assertThat(output(dest)).isEmpty();
    assertSuccessMarker(job, 0);
  }

  @Test
  void jobCommitWithoutTaskCommitPublishesNothing() throws Exception {
    Job job = newJob();
    job.setup();
    TaskAttemptContext t = job.task(0, 0);
    job.write(t, "never committed");
    job.commit();
    assertThat(output(dest)).isEmpty();
    assertJobDataGone(job);
  }

  @Test
  void abortTaskAndAbortJobAreIdempotent() throws Exception {
    Job job = newJob();
    PathOutputCommitter am = job.setup();
    TaskAttemptContext t = job.task(0, 0);
    job.write(t, "aborted");
    job.journal();
    PathOutputCommitter c = job.committer(t);
    c.abortTask(t);
    c.abortTask(t);
    TaskAttemptContext t2 = job.task(1, 0);
    job.write(t2, "committed then job aborted");
    job.commitTask(t2);
    job.journal();
    am.abortJob(job.context(), JobStatus.State.FAILED);
    am.abortJob(job.context(), JobStatus.State.FAILED);
    assertThat(output(dest)).isEmpty();
    assertThat(fs().exists(new Path(dest, "_SUCCESS"))).isFalse();
    assertJobDataGone(job);
  }

  @Test
  void jobsInSiblingDirectoriesDoNotInterfere() throws Exception {
    Path left = new Path(dest, "left");
    Path right = new Path(dest, "right");
    Job a = new Job(left, conf);
    Job b = new Job(right, conf);
    a.setup();
    b.setup();
    TaskAttemptContext ta = a.task(0, 0);
    TaskAttemptContext tb = b.task(0, 0);
    String fa = a.write(ta, "left");
    String fb = b.write(tb, "right");
    a.commitTask(ta);
    b.commitTask(tb);
    b.journal();
    a.commit();
    assertPending(1); // the other job's upload
    b.commit();
    assertThat(output(dest)).containsOnlyKeys("left/" + fa, "right/" + fb);
  }

  @Test
  void mapFileOutput() throws Exception {
    Job job = newJob();
    job.jobConf.setClass("mapreduce.job.output.key.class", IntWritable.class, Object.class);
    job.jobConf.setClass("mapreduce.job.output.value.class", Text.class, Object.class);
    job.setup();
    TaskAttemptContext t = job.task(0, 0);
    job.committer(t).setupTask(t);
    @SuppressWarnings({"unchecked", "rawtypes"})
    RecordWriter<IntWritable, Text> w = (RecordWriter) new MapFileOutputFormat().getRecordWriter(t);
    for (int i = 0; i < 10; i++) {
      w.write(new IntWritable(i), new Text("value " + i));
    }
    w.close(t);
    job.commitTask(t);
    job.commit();
    FileStatus[] parts = fs().listStatus(dest, p -> !p.getName().startsWith("_"));
    assertThat(parts).hasSize(1);
    assertThat(parts[0].isDirectory()).isTrue();
    try (MapFile.Reader r = new MapFile.Reader(parts[0].getPath(), conf)) {
      Text v = new Text();
      assertThat(r.get(new IntWritable(7), v)).isNotNull();
      assertThat(v.toString()).isEqualTo("value 7");
    }
  }
}
