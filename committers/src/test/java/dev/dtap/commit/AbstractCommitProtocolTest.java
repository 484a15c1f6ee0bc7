package dev.dtap.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The commit protocol scenarios Hadoop's committer tests cover, written for the dtap committers and
 * run against every store (a local fake in unit tests, MinIO in integration tests): what becomes
 * visible when, repeated and competing commits, failures and aborts, and a crash at every step of
 * job commit followed by recovery. Every scenario also checks, by asking the store about each
 * journaled upload, that no upload is left pending.
 */
public abstract class AbstractCommitProtocolTest {
  private static int jobCounter;

  protected Configuration conf;
  protected Path dest;
  private final List<CommitTesting.Upload> seen = new ArrayList<>();

  /** @return "magic" or "staging" */
  protected abstract String committerName();

  /** @return a configuration with a writable tap whose backend has a multipart store */
  protected abstract Configuration newConfiguration() throws Exception;

  /** @return a fresh, absent directory on that tap */
  protected abstract Path newDestination() throws Exception;

  @BeforeEach
  void setUpJob() throws Exception {
    conf = newConfiguration();
    conf.set("mapreduce.outputcommitter.factory.scheme.dtap", DataTapCommitterFactory.class.getName());
    conf.set(CommitterKeys.NAME.name(), committerName());
    dest = newDestination();
  }

  @AfterEach
  void noPendingUploads() throws Exception {
    CommitTesting.onCommitStep(null);
    assertThat(CommitTesting.pending(dest, conf, seen)).as("uploads left pending").isEmpty();
  }

  // ---- a job, its tasks and their output

  /** A job of this test: its id, configuration and contexts. */
  protected final class Job {
    final JobID id;
    final Configuration jobConf;
    final Path out;

    Job(Path out, Configuration base) {
      this.id = new JobID("2026" + ThreadLocalRandom.current().nextInt(100000, 999999), ++jobCounter);
      this.jobConf = new Configuration(base);
      this.out = out;
      jobConf.set(FileOutputFormat.OUTDIR, out.toString());
    }

    JobContext context() {
      return new JobContextImpl(jobConf, id);
    }

    TaskAttemptContext task(int task, int attempt) {
      return new TaskAttemptContextImpl(jobConf, new TaskAttemptID(new TaskID(id, TaskType.MAP, task), attempt));
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
      assertThat(c.needsTaskCommit(t)).isTrue();
      c.commitTask(t);
    }

    void commit() throws IOException {
      journal();
      committer(task(0, 0)).commitJob(context());
    }

    /** Records the job's journaled uploads for the end-of-test check. */
    void journal() throws IOException {
      for (CommitTesting.Upload u : CommitTesting.journaled(out, conf, id.toString())) {
        if (!seen.toString().contains(u.toString())) {
          seen.add(u);
        }
      }
    }
  }

  protected Job newJob() {
    return new Job(dest, conf);
  }

  private FileSystem fs() throws IOException {
    return dest.getFileSystem(conf);
  }

  /** @return visible output under a directory: relative path to content */
  protected TreeMap<String, String> output(Path dir) throws IOException {
    TreeMap<String, String> out = new TreeMap<>();
    if (!fs().exists(dir)) {
      return out;
    }
    org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> it = fs().listFiles(dir, true);
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

  private void assertSuccessMarker(Job job, int files) throws IOException {
    Path marker = new Path(dest, "_SUCCESS");
    assertThat(fs().exists(marker)).as("_SUCCESS").isTrue();
    try (FSDataInputStream in = fs().open(marker)) {
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(json)
          .contains("\"name\" : \"" + SuccessMarker.NAME + "\"")
          .contains("\"jobId\" : \"" + job.id + "\"")
          .contains("\"committer_files_committed\" : " + files);
    }
  }

  private void assertJobDirGone(Job job) throws IOException {
    assertThat(CommitTesting.jobDirExists(dest, conf, job.id.toString())).as("job directory left").isFalse();
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
    assertThat(CommitTesting.pending(dest, conf, seen)).as("pending before job commit").hasSize(2);
    job.commit();
    assertThat(output(dest)).containsOnlyKeys(f0, f1).containsEntry(f0, "alpha\nbeta\n").containsEntry(f1, "gamma\n");
    assertSuccessMarker(job, 2);
    assertJobDirGone(job);
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
        f.add(pool.submit(() -> {
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
    CommitTesting.onCommitStep((step, n) -> {
      if (step.equals(CommitSteps.COMPLETED) && n == 2) {
        throw new IOException("injected failure after two completes");
      }
    });
    assertThatThrownBy(job::commit).hasMessageContaining("injected failure");
    CommitTesting.onCommitStep(null);
    job.commit();
    assertThat(output(dest)).containsOnlyKeys(names);
    assertSuccessMarker(job, 3);
    assertJobDirGone(job);
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
    assertJobDirGone(job);
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
    assertJobDirGone(job);
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
    CommitTesting.onCommitStep((step, n) -> {
      if (step.equals(CommitSteps.COMPLETED) && n == 1) {
        throw new IOException("injected failure after one complete");
      }
    });
    assertThatThrownBy(job::commit).hasMessageContaining("injected");
    CommitTesting.onCommitStep(null);
    am.abortJob(job.context(), JobStatus.State.FAILED);
    assertThat(output(dest)).isEmpty();
    assertJobDirGone(job);
  }

  @Test
  void jobsInSiblingDirectoriesAndInOneDirectoryDoNotInterfere() throws Exception {
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
    assertThat(CommitTesting.pending(dest, conf, seen)).as("the other job's upload").hasSize(1);
    b.commit();
    assertThat(output(dest)).containsOnlyKeys("left/" + fa, "right/" + fb);

    // two jobs into one directory, with unique file names
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
    assertThat(output(shared)).containsOnly(java.util.Map.entry(fc, "c\n"), java.util.Map.entry(fd, "d\n"));
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

  @Test
  void crashAtEveryStepOfJobCommitThenRecovery() throws Exception {
    String[] steps = {
      CommitSteps.LISTED, CommitSteps.INTENT_WRITTEN, CommitSteps.COMPLETED + "#1",
      CommitSteps.COMPLETED + "#3", CommitSteps.SUCCESS_WRITTEN, CommitSteps.CLEANED
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
      CommitTesting.onCommitStep((step, n) -> {
        String here = step.equals(CommitSteps.COMPLETED) ? step + "#" + n : step;
        if (here.equals(crashAt)) {
          throw new IOException("simulated crash at " + crashAt);
        }
      });
      assertThatThrownBy(job::commit).as(crashAt).hasMessageContaining("simulated crash");
      CommitTesting.onCommitStep(null);
      List<CommitRecovery.JobReport> reports = CommitRecovery.recover(out, conf, false);
      boolean decided = !crashAt.equals(CommitSteps.LISTED);
      if (decided) {
        assertThat(output(out)).as("after recovery from a crash at " + crashAt).containsOnlyKeys(names);
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
      assertThat(CommitTesting.pending(dest, conf, seen)).as("pending after a crash at " + crashAt).isEmpty();
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
    assertThatThrownBy(failing::setup).isInstanceOf(FileAlreadyExistsException.class).hasMessageContaining(dest.toUri().getPath());

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
    assertThatThrownBy(() -> failing.commitTask(f)).isInstanceOf(FileAlreadyExistsException.class).hasMessageContaining("p=1");
    failing.committer(f).abortTask(f);

    conf.set(CommitterKeys.CONFLICT_MODE.name(), "replace");
    Job replacing = newJob();
    replacing.setup();
    TaskAttemptContext r = replacing.task(0, 0);
    writeIn(replacing, r, "p=1", "one-new");
    replacing.commitTask(r);
    replacing.commit();
    assertThat(output(dest)).containsOnly(
        java.util.Map.entry("p=1/one-new", "one-new"), java.util.Map.entry("p=2/two-old", "two-old"));
  }

  /** Writes a file named like its content into a partition directory of the attempt. */
  private void writeIn(Job job, TaskAttemptContext t, String partition, String content) throws IOException {
    PathOutputCommitter c = job.committer(t);
    c.setupTask(t);
    Path file = new Path(new Path(c.getWorkPath(), partition), content);
    FileSystem wfs = file.getFileSystem(t.getConfiguration());
    try (org.apache.hadoop.fs.FSDataOutputStream out = wfs.create(file, true)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void largeFileStreamsInParts() throws Exception {
    Job job = newJob();
    job.jobConf.set(CommitterKeys.PART_SIZE.name(), "5m");
    job.setup();
    TaskAttemptContext t = job.task(0, 0);
    PathOutputCommitter c = job.committer(t);
    c.setupTask(t);
    byte[] data = new byte[(12 << 20) + 12345];
    new java.util.Random(7).nextBytes(data);
    Path file = new Path(c.getWorkPath(), "big.bin");
    try (org.apache.hadoop.fs.FSDataOutputStream out = file.getFileSystem(t.getConfiguration()).create(file, true)) {
      for (int i = 0; i < data.length; i += 100_000) {
        out.write(data, i, Math.min(100_000, data.length - i));
      }
    }
    job.commitTask(t);
    job.commit();
    try (FSDataInputStream in = fs().open(new Path(dest, "big.bin"))) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
  }
}
