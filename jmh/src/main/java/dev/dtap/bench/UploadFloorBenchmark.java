package dev.dtap.bench;

import dev.dtap.it.fixtures.MinioFixture;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * The floor under {@link CommitBenchmark} on this machine: the same bytes (1,000 files of {@code
 * fileSize}, 8 at a time) sent to the same MinIO with the least work a client that signs as S3A
 * does can do for them. One single-part PUT per file (1,000 requests), no multipart upload, no
 * journal, no task or job commit, and no copy of the data in this code (every request sends views
 * of one array), signed by the SDK's SigV4 signer over the JDK's HTTP client: the payload's SHA-256
 * signed over plain http, {@code UNSIGNED-PAYLOAD} over https, as S3A and dtap's committers (by
 * default) send it.
 *
 * <p>A committer signing the same way does more than this for the same files, so this time, taken
 * in the same run, is where its ratio to {@code s3a-magic} bottoms out on this store and these
 * cores (within the run's noise). {@code clientCpuSeconds} and {@code serverCpuSeconds} are
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

  /** The views each request sends, as dtap's part memory hands them out. */
  private static final int VIEW = 1 << 20;

  @Param({"1k", "8m"})
  public String fileSize;

  /** {@code http}, or {@code https} (see {@link CommitBenchmark#scheme}). */
  @Param({"http"})
  public String scheme;

  private MinioFixture minio;
  private String bucket;

  /** Where the bucket's objects are, path-style, ending in {@code /}. */
  private String bucketUri;

  private byte[] data;
  private HttpClient http;
  private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();
  private AwsBasicCredentials credentials;
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
    bucketUri = minio.endpoint().toString().replaceAll("/$", "") + "/" + bucket + "/";
    data = CommitBenchmark.fileData(fileSize);
    credentials = AwsBasicCredentials.create(minio.accessKey(), minio.secretKey());
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
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
                  put(key);
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
        "%nfloor %s %s job %d: cpu: client %.1f s, server %.1f s%n",
        fileSize, scheme, job, client, server);
  }

  private void put(String key) throws IOException, InterruptedException {
    URI uri = URI.create(bucketUri + key);
    boolean signPayload = !scheme.equals("https");
    SdkHttpRequest unsigned =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.PUT)
            .uri(uri)
            .putHeader("Content-Length", Integer.toString(data.length))
            .build();
    SignedRequest signed =
        signer.sign(
            r -> {
              r.identity(credentials)
                  .request(unsigned)
                  .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "s3")
                  .putProperty(AwsV4HttpSigner.REGION_NAME, MinioFixture.REGION)
                  .putProperty(AwsV4FamilyHttpSigner.DOUBLE_URL_ENCODE, false)
                  .putProperty(AwsV4FamilyHttpSigner.NORMALIZE_PATH, false)
                  .putProperty(AwsV4FamilyHttpSigner.CHUNK_ENCODING_ENABLED, false)
                  .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, signPayload);
              if (signPayload) {
                r.payload(ContentStreamProvider.fromByteArrayUnsafe(data));
              }
            });
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .PUT(HttpRequest.BodyPublishers.fromPublisher(new Views(data), data.length));
    for (Map.Entry<String, List<String>> h : signed.request().headers().entrySet()) {
      String name = h.getKey().toLowerCase(Locale.ROOT);
      if (!name.equals("host") && !name.equals("content-length")) {
        h.getValue().forEach(v -> b.header(h.getKey(), v));
      }
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException("PUT " + key + ": HTTP " + r.statusCode() + " " + r.body());
    }
  }

  /**
   * Publishes views of one array, {@link #VIEW} bytes each, without copying it (the committers' own
   * publisher is package-private to them).
   */
  private static final class Views implements Flow.Publisher<ByteBuffer> {
    private final byte[] data;

    Views(byte[] data) {
      this.data = data;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> s) {
      List<ByteBuffer> views = new ArrayList<>();
      for (int off = 0; off < data.length; off += VIEW) {
        views.add(ByteBuffer.wrap(data, off, Math.min(VIEW, data.length - off)));
      }
      Iterator<ByteBuffer> next = views.iterator();
      s.onSubscribe(
          new Flow.Subscription() {
            private long demand;
            private boolean draining;
            private boolean done;

            @Override
            public synchronized void request(long n) {
              if (n <= 0) {
                done = true;
                s.onError(new IllegalArgumentException("non-positive demand " + n));
                return;
              }
              demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
              if (draining) {
                return; // asked from inside onNext: the loop below goes on
              }
              draining = true;
              while (!done && demand > 0 && next.hasNext()) {
                demand--;
                s.onNext(next.next());
              }
              draining = false;
              if (!done && !next.hasNext()) {
                done = true;
                s.onComplete();
              }
            }

            @Override
            public synchronized void cancel() {
              done = true;
            }
          });
    }
  }
}
