package dev.dtap.bench;

import dev.dtap.it.fixtures.MinioFixture;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
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
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * The floor under {@link CommitBenchmark} on this machine: the same bytes (1,000 files of {@code
 * fileSize}, 8 at a time) sent to the same MinIO through the same client the committers use, S3A's
 * own S3 client as S3A configures it, with the least work that can store them: no journal, no task
 * or job commit, and no copy of the data in this code (every request reads views of one array, 1
 * MiB each, as dtap's part memory hands them out). {@code requests=put} sends one single-part PUT
 * per file (1,000 requests), the least any client can do. {@code requests=multipart} sends an
 * initiate, one part and a complete per file (3,000 requests): the least a committer can do that
 * keeps a file invisible until job commit without copying it, as S3A's magic committer and dtap's
 * do (a file of up to 8 MiB is one part at the committers' default part size).
 *
 * <p>A committer sending through that client does more than this for the same files, so this time,
 * taken in the same run, is where its ratio to {@code s3a-magic} bottoms out on this store and
 * these cores (within the run's noise). {@code clientCpuSeconds} and {@code serverCpuSeconds} are
 * reported as in {@link CommitBenchmark}.
 *
 * <pre>java -jar jmh/target/benchmarks.jar 'CommitBenchmark|UploadFloorBenchmark' -p fileSize=8m
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx4g", "-XX:+UseParallelGC"})
public class UploadFloorBenchmark {
  static final int FILES = CommitBenchmark.TASKS * CommitBenchmark.FILES_PER_TASK;

  /** The views each request reads, as dtap's part memory hands them out. */
  private static final int VIEW = 1 << 20;

  @Param({"1k", "8m"})
  public String fileSize;

  /** {@code put} or {@code multipart}: see the class comment. */
  @Param({"put", "multipart"})
  public String requests;

  /** {@code http}, or {@code https} (see {@link CommitBenchmark#scheme}). */
  @Param({"http"})
  public String scheme;

  private MinioFixture minio;
  private String bucket;
  private byte[] data;
  private FileSystem s3a;
  private S3Client client;
  private int job;
  private int measured;
  private long clientCpuBefore;
  private double serverCpuBefore;

  /** Processor time of a job: each measured job adds its share, so JMH's sum is the mean. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Cpu {
    public double clientCpuSeconds;
    public double serverCpuSeconds;
  }

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) throws Exception {
    measured = Math.max(1, params.getMeasurement().getCount());
    minio = scheme.equals("https") ? MinioFixture.tls() : MinioFixture.get();
    bucket = minio.createBucket("floor");
    data = CommitBenchmark.fileData(fileSize);
    Configuration conf = minio.configureS3a(new Configuration());
    s3a = FileSystem.newInstance(URI.create("s3a://" + bucket + "/"), conf);
    client = ((S3AFileSystem) s3a).getS3AInternals().getAmazonS3Client("upload floor");
  }

  @TearDown(Level.Trial)
  public void closeS3a() throws IOException {
    s3a.close();
  }

  @Setup(Level.Iteration)
  public void newJob() {
    job++;
    clientCpuBefore = BenchmarkSupport.clientCpuNanos();
    serverCpuBefore = BenchmarkSupport.serverCpuSeconds(minio);
  }

  @TearDown(Level.Iteration)
  public void deleteOutput() {
    // what the job wrote; outside the measured window
    BenchmarkSupport.emptyBucket(minio, bucket);
  }

  @Benchmark
  public void putAll(Cpu cpu) throws Exception {
    ExecutorService containers = Executors.newFixedThreadPool(CommitBenchmark.CONTAINERS);
    try {
      List<Future<?>> puts = new ArrayList<>();
      for (int f = 0; f < FILES; f++) {
        String key = String.format("out-%d/part-%05d", job, f);
        puts.add(
            containers.submit(
                () -> {
                  if (requests.equals("multipart")) {
                    multipart(key);
                  } else {
                    put(key);
                  }
                  return null;
                }));
      }
      for (Future<?> p : puts) {
        p.get();
      }
    } finally {
      containers.shutdown();
    }
    double client = (BenchmarkSupport.clientCpuNanos() - clientCpuBefore) / 1e9;
    double server = BenchmarkSupport.serverCpuSeconds(minio) - serverCpuBefore;
    // a warm-up job's counters are dropped by JMH; a measured job's are summed with the others'
    cpu.clientCpuSeconds = client / measured;
    cpu.serverCpuSeconds = server / measured;
    System.out.printf(
        "%nfloor %s %s %s job %d: cpu: client %.1f s, server %.1f s%n",
        requests, fileSize, scheme, job, client, server);
  }

  private void put(String key) {
    client.putObject(
        b -> b.bucket(bucket).key(key),
        RequestBody.fromContentProvider(this::views, data.length, "application/octet-stream"));
  }

  private void multipart(String key) {
    String id = client.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
    String etag =
        client
            .uploadPart(
                b ->
                    b.bucket(bucket)
                        .key(key)
                        .uploadId(id)
                        .partNumber(1)
                        .contentLength((long) data.length),
                RequestBody.fromContentProvider(
                    this::views, data.length, "application/octet-stream"))
            .eTag();
    client.completeMultipartUpload(
        b ->
            b.bucket(bucket)
                .key(key)
                .uploadId(id)
                .multipartUpload(
                    m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
  }

  /** The file's bytes as views of one array, {@link #VIEW} bytes each, none copied here. */
  private InputStream views() {
    List<InputStream> views = new ArrayList<>();
    for (int off = 0; off < data.length; off += VIEW) {
      views.add(new ByteArrayInputStream(data, off, Math.min(VIEW, data.length - off)));
    }
    return new SequenceInputStream(Collections.enumeration(views));
  }
}
