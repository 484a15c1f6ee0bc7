package dev.dtap.bench;

import dev.dtap.it.fixtures.HdfsFixture;
import dev.dtap.it.fixtures.MinioFixture;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
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
import org.openjdk.jmh.annotations.Warmup;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Split planning as a MapReduce job client does it: {@code FileInputFormat.getSplits} over 10,000
 * files, with a fixed round trip injected before every backend call ({@link DelayFileSystem},
 * {@code fs.delay.rtt}, default 2 ms) so that loopback servers do not hide per-file costs.
 *
 * <ul>
 *   <li>{@code hdfs}: the files on MiniDFSCluster, directly (HDFS lists with locations, one call
 *       per 1,000 files);
 *   <li>{@code dtap}: the same files through a dtap tap with the locality resolver;
 *   <li>{@code dtap-passthrough}: the old DataTap design for contrast, a tap forwarding locations
 *       to a backend that answers them per file;
 *   <li>{@code s3a} and {@code dtap-s3}: the same over MinIO through S3A.
 * </ul>
 *
 * {@code locationCalls} counts location calls that reach the backend, per planning.
 *
 * <pre>java -jar jmh/target/benchmarks.jar SplitPlanningBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "-Xmx2g",
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED"
    })
public class SplitPlanningBenchmark {
  static final int FILES = 10_000;

  @Param({"hdfs", "dtap", "dtap-passthrough", "s3a", "dtap-s3"})
  public String target;

  private Configuration conf;
  private Path input;

  /** Backend location calls per planning, reported next to the time. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Calls {
    public long locationCalls;
  }

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    conf = new Configuration();
    conf.set("fs.delay.impl", DelayFileSystem.class.getName());
    conf.setBoolean("fs.delay.impl.disable.cache", false);
    conf.set("fs.delay.rtt", System.getProperty("dtap.bench.rtt", "2ms"));
    conf.set(
        "fs.dtap.locality.hosts",
        "worker-1.example.com,worker-2.example.com,worker-3.example.com,worker-4.example.com");
    conf.setInt("fs.s3a.paging.maximum", 1000);
    if (target.contains("s3")) {
      MinioFixture minio = MinioFixture.get();
      String bucket = minio.createBucket("splits");
      minio.configureS3a(conf);
      conf.set("fs.delay.s3.uri", "s3a://" + bucket + "/split-bench");
      createObjects(minio, bucket);
      conf.set("fs.dtap.tap.splits3.uri", "delay://s3/");
      conf.set("fs.dtap.tap.splits3.locality", "true");
      input = new Path(target.equals("s3a") ? "delay://s3/files" : "dtap://splits3/files");
    } else {
      HdfsFixture hdfs = HdfsFixture.get();
      conf.addResource(hdfs.conf());
      conf.set("fs.delay.hdfs.uri", hdfs.uri().toString());
      conf.set("fs.delay.hdfs-old.uri", hdfs.uri().toString());
      conf.set("fs.delay.hdfs-old.batched-locations", "false");
      createFiles(hdfs.fileSystem(), new Path("/split-bench/files"));
      conf.set("fs.dtap.tap.split.uri", "delay://hdfs/split-bench");
      conf.set("fs.dtap.tap.split.locality", "true");
      conf.set("fs.dtap.tap.splitold.uri", "delay://hdfs-old/split-bench");
      switch (target) {
        case "hdfs":
          input = new Path("delay://hdfs/split-bench/files");
          break;
        case "dtap":
          input = new Path("dtap://split/files");
          break;
        default:
          input = new Path("dtap://splitold/files");
      }
    }
    // the first planning pays for class loading and connections; warm-up iterations absorb it
  }

  private static void createFiles(FileSystem fs, Path dir) throws Exception {
    if (fs.exists(dir) && fs.listStatus(dir).length == FILES) {
      return;
    }
    fs.mkdirs(dir);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int first = t;
      done.add(
          pool.submit(
              () -> {
                for (int i = first; i < FILES; i += 8) {
                  try (FSDataOutputStream out =
                      fs.create(new Path(dir, String.format("part-%05d", i)))) {
                    out.write(new byte[100]);
                  }
                }
                return null;
              }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
  }

  private static void createObjects(MinioFixture minio, String bucket) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int first = t;
      done.add(
          pool.submit(
              () -> {
                for (int i = first; i < FILES; i += 8) {
                  String key = String.format("split-bench/files/part-%05d", i);
                  minio
                      .client()
                      .putObject(
                          b -> b.bucket(bucket).key(key), RequestBody.fromBytes(new byte[100]));
                }
                return null;
              }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
  }

  @Benchmark
  public List<InputSplit> getSplits(Calls calls) throws IOException {
    long before = DelayFileSystem.locationCalls();
    Job job = Job.getInstance(conf);
    FileInputFormat.addInputPath(job, input);
    List<InputSplit> splits = new TextInputFormat().getSplits(job);
    if (splits.size() != FILES) {
      throw new IllegalStateException("expected " + FILES + " splits, got " + splits.size());
    }
    calls.locationCalls += DelayFileSystem.locationCalls() - before;
    return splits;
  }
}
