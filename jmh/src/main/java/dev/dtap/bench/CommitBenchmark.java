package dev.dtap.bench;

import dev.dtap.commit.DataTapCommitterFactory;
import dev.dtap.it.fixtures.MinioFixture;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Job commit on MinIO, as a job does it: setup, 100 tasks writing 10 files each (8 at a time, as 8
 * containers would) and committing, then job commit. The time is the job's wall time from setup to
 * the end of job commit.
 *
 * <ul>
 *   <li>{@code committer}: {@code dtap-magic} and {@code dtap-staging} (through a dtap tap over the
 *       bucket, every request through S3A's own client), {@code s3a-magic}, {@code
 *       s3a-magic-inmemory} (with {@code fs.s3a.committer.magic.track.commits.in.memory.enabled},
 *       S3A's leanest magic committer) and {@code s3a-directory} (Hadoop's S3A committers through
 *       {@code S3ACommitterFactory}) and {@code file} (FileOutputCommitter over s3a, with Hadoop
 *       3.4's default algorithm 2);
 *   <li>{@code fileSize}: {@code 1k} or {@code 8m}.
 * </ul>
 *
 * {@code requestsPerFile} and {@code copyRequests} are counted by the server (MinIO's v3 API
 * request counters, read before and after each job), so every client is counted alike, and are
 * reported per job whatever the number of iterations (JMH sums event counters); the per-API
 * breakdown of each job is printed. {@code clientCpuSeconds} is the processor time of this JVM
 * during the job (writers, uploads, commit, and the JIT and GC they cause) and {@code
 * serverCpuSeconds} that of the MinIO process (NaN when the server is not a local process): the two
 * share the machine's cores, so the job's wall time is bounded by their sum.
 *
 * <pre>java -jar jmh/target/benchmarks.jar CommitBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx4g", "-XX:+UseParallelGC"})
public class CommitBenchmark {
  static final int TASKS = 100;
  static final int FILES_PER_TASK = 10;
  static final int CONTAINERS = 8;

  @Param({"dtap-magic", "dtap-staging", "s3a-magic", "s3a-magic-inmemory", "s3a-directory", "file"})
  public String committer;

  @Param({"1k", "8m"})
  public String fileSize;

  /**
   * {@code http}, or {@code https}: MinIO over TLS (the JVM must trust its certificate, see
   * docs/benchmarks.md for the command).
   */
  @Param({"http"})
  public String scheme;

  private MinioFixture minio;
  private String bucket;
  private Configuration conf;
  private File scratch;
  private byte[] data;
  private Path dest;
  private Map<String, Long> before;
  private long clientCpuBefore;
  private double serverCpuBefore;
  private int job;

  /** Server-side request counts of the last job. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Requests {
    public double requestsPerFile;
    public double copyRequests;
    public double clientCpuSeconds;
    public double serverCpuSeconds;
  }

  /** Measured iterations: JMH sums event counters over them, so each job reports its share. */
  private int measured;

  /**
   * @param fileSize {@code 1k} or {@code 8m}
   * @return the bytes every file of a job holds, the same for every run
   */
  static byte[] fileData(String fileSize) {
    byte[] data = new byte[fileSize.equals("1k") ? 1024 : 8 << 20];
    new Random(42).nextBytes(data);
    return data;
  }

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) throws Exception {
    measured = Math.max(1, params.getMeasurement().getCount());
    minio = scheme.equals("https") ? MinioFixture.tls() : MinioFixture.get();
    bucket = minio.createBucket("commit");
    scratch = BenchmarkSupport.scratch("commit");
    data = fileData(fileSize);
    conf = new Configuration();
    minio.configureS3a(conf);
    minio.addTap(conf, "bench", bucket, "");
    conf.set("fs.s3a.buffer.dir", new File(scratch, "s3a-buffer").getAbsolutePath());
    conf.set(
        "fs.s3a.committer.staging.tmp.path", new File(scratch, "s3a-staging").toURI().toString());
    conf.set("fs.dtap.committer.staging.dir", new File(scratch, "dtap-staging").getAbsolutePath());
    conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", DataTapCommitterFactory.class.getName());
    switch (committer) {
      case "dtap-magic":
      case "dtap-staging":
        conf.set("fs.dtap.committer.name", committer.substring(5));
        break;
      case "s3a-magic":
      case "s3a-directory":
        conf.set(
            "mapreduce.outputcommitter.factory.scheme.s3a",
            "org.apache.hadoop.fs.s3a.commit.S3ACommitterFactory");
        conf.set("fs.s3a.committer.name", committer.substring(4));
        break;
      case "s3a-magic-inmemory":
        // S3A's leanest magic committer: no marker or .pending objects per file (HADOOP-19047)
        conf.set(
            "mapreduce.outputcommitter.factory.scheme.s3a",
            "org.apache.hadoop.fs.s3a.commit.S3ACommitterFactory");
        conf.set("fs.s3a.committer.name", "magic");
        conf.setBoolean("fs.s3a.committer.magic.track.commits.in.memory.enabled", true);
        break;
      default:
        conf.set(
            "mapreduce.outputcommitter.factory.scheme.s3a",
            "org.apache.hadoop.mapreduce.lib.output.FileOutputCommitterFactory");
    }
  }

  @Setup(Level.Iteration)
  public void newJob() throws Exception {
    job++;
    String out = "out-" + job;
    dest =
        new Path(
            committer.startsWith("dtap") ? "dtap://bench/" + out : "s3a://" + bucket + "/" + out);
    before = minio.requestCounts();
    clientCpuBefore = BenchmarkSupport.clientCpuNanos();
    serverCpuBefore = BenchmarkSupport.serverCpuSeconds(minio);
  }

  @TearDown(Level.Iteration)
  public void deleteOutput() {
    // what the jobs wrote; outside the measured window and after the counters were read
    BenchmarkSupport.emptyBucket(minio, bucket);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    FileSystem.closeAll();
    BenchmarkSupport.deleteTree(scratch);
  }

  @Benchmark
  public void commitJob(Requests requests) throws Exception {
    Configuration jobConf = new Configuration(conf);
    jobConf.set(FileOutputFormat.OUTDIR, dest.toString());
    JobID id = new JobID("2026112" + job, job);
    JobContext jobContext = new JobContextImpl(jobConf, id);
    PathOutputCommitter am =
        PathOutputCommitterFactory.createCommitter(dest, attempt(jobConf, id, 0));
    am.setupJob(jobContext);
    ExecutorService containers = Executors.newFixedThreadPool(CONTAINERS);
    try {
      List<Future<?>> tasks = new ArrayList<>();
      for (int t = 0; t < TASKS; t++) {
        int task = t;
        tasks.add(
            containers.submit(
                () -> {
                  runTask(jobConf, id, task);
                  return null;
                }));
      }
      for (Future<?> f : tasks) {
        f.get();
      }
    } finally {
      containers.shutdown();
    }
    am.commitJob(jobContext);
    double clientCpu = (BenchmarkSupport.clientCpuNanos() - clientCpuBefore) / 1e9;
    double serverCpu = BenchmarkSupport.serverCpuSeconds(minio) - serverCpuBefore;

    Map<String, Long> delta = MinioFixture.delta(before, minio.requestCounts());
    long total = 0;
    for (long d : delta.values()) {
      total += d;
    }
    int files = TASKS * FILES_PER_TASK;
    double perFile = (double) total / files;
    long copies = delta.getOrDefault("CopyObject", 0L) + delta.getOrDefault("CopyObjectPart", 0L);
    // a warm-up job's counters are dropped by JMH; a measured job's are summed with the others'
    requests.requestsPerFile = perFile / measured;
    requests.copyRequests = (double) copies / measured;
    requests.clientCpuSeconds = clientCpu / measured;
    requests.serverCpuSeconds = serverCpu / measured;
    System.out.printf(
        "%n%s %s job %d: %d requests for %d files (%.2f per file): %s; cpu: client %.1f s,"
            + " server %.1f s%n",
        committer, fileSize, job, total, files, perFile, delta, clientCpu, serverCpu);
  }

  private static TaskAttemptContext attempt(Configuration conf, JobID job, int task) {
    return new TaskAttemptContextImpl(
        conf, new TaskAttemptID(new TaskID(job, TaskType.MAP, task), 0));
  }

  private void runTask(Configuration jobConf, JobID id, int task) throws Exception {
    TaskAttemptContext ctx = attempt(jobConf, id, task);
    PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, ctx);
    c.setupTask(ctx);
    Path work = c.getWorkPath();
    FileSystem fs = work.getFileSystem(jobConf);
    for (int f = 0; f < FILES_PER_TASK; f++) {
      try (FSDataOutputStream out =
          fs.create(new Path(work, String.format("part-%05d-%02d", task, f)), true)) {
        out.write(data);
      }
    }
    if (c.needsTaskCommit(ctx)) {
      c.commitTask(ctx);
    }
  }
}
