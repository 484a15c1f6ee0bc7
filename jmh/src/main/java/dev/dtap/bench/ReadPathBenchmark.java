package dev.dtap.bench;

import dev.dtap.cache.CacheAdmin;
import dev.dtap.it.fixtures.CnodeProcess;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.ShapingProxy;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.util.functional.FutureIO;
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
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The read path with and without the cache: a 256 MiB file of random bytes in MinIO, and the same
 * bytes in a local file.
 *
 * <ul>
 *   <li>{@code impl}: {@code local} (Hadoop's raw local filesystem), {@code s3a} (S3A on MinIO),
 *       {@code s3a-keep} (the floor of a first read that keeps what it reads: S3A's read, each 1
 *       MiB it returns copied and written to a file of its own by a background thread, as the cache
 *       writes pages; the writes still running when the read ends are waited for between
 *       operations, untimed, as {@code dtap-cold}'s are), {@code dtap-cold} (a cached tap over the
 *       same bucket, cache emptied before every op), {@code dtap-warm} (the same tap after a full
 *       warm-up: reads until one needs nothing from the store; default cache settings), {@code
 *       dtap-disk} (warm with the memory tier off: every page from the local disk, as in a task JVM
 *       whose small heap holds few pages), {@code cnode-disk} (warm through a host cache service in
 *       a process of its own, short-circuit descriptors on, the client's memory tier off);
 *   <li>{@code pattern}: {@code seq} (one op reads the whole file with a 1 MiB buffer, read policy
 *       {@code sequential}) or {@code rand64k} (one op is one 64 KiB positioned read at a seeded
 *       random offset, read policy {@code random});
 *   <li>{@code store}: {@code loopback} (MinIO on this host, the default) or {@code
 *       LATENCYms/MBITS} (the same store behind the shaping proxy that models a remote one: each
 *       request waits the latency, all connections share one link of that bandwidth), e.g. {@code
 *       -p store=2ms/1000}; not a comma, at which JMH splits a parameter's values.
 * </ul>
 *
 * Compare the impls of one run, per pattern.
 *
 * <pre>java -jar jmh/target/benchmarks.jar ReadPathBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// S3A's stack needs a long warm-up on two cores: its throughput still climbs after 30 s. Each
// trial is a JVM of its own, so a cold random read (S3A's stack and the cache's, a few hundred
// reads a second) measured after 8 s of warm-up ran at 0.63x-0.76x of S3A's, and at 1.02x after
// 30 s (2026-12-07): the "-wi 2" keeps a warm-up of 30 s with these 15 s iterations
@Warmup(iterations = 10, time = 15)
@Measurement(iterations = 6, time = 4)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx3g", "-XX:+UseParallelGC"})
public class ReadPathBenchmark {
  static final int SIZE = 256 << 20;
  static final int READ = 64 << 10;

  @Param({"local", "s3a", "s3a-keep", "dtap-cold", "dtap-warm", "dtap-disk", "cnode-disk"})
  public String impl;

  @Param({"seq", "rand64k"})
  public String pattern;

  @Param({LOOPBACK})
  public String store;

  static final String LOOPBACK = "loopback";

  private File scratch;
  private FileSystem fs;
  private Path path;
  private FSDataInputStream random;
  private CnodeProcess service;
  private ShapingProxy proxy;
  private ExecutorService keeper;
  private final List<Future<?>> keeping = new ArrayList<>();
  private File keepDir;
  private int kept;
  private final byte[] buffer = new byte[1 << 20];
  private final Random offsets = new Random(2026);

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    byte[] data = new byte[SIZE];
    new Random(42).nextBytes(data);
    scratch = BenchmarkSupport.scratch("readpath");
    Configuration conf = new Configuration();
    if (impl.equals("local")) {
      File f = new File(scratch, "data.bin");
      Files.write(f.toPath(), data);
      fs = new RawLocalFileSystem();
      fs.initialize(URI.create("file:///"), conf);
      path = new Path(f.toURI());
    } else {
      MinioFixture minio = MinioFixture.get();
      String bucket = minio.createBucket("readpath");
      minio
          .client()
          .putObject(b -> b.bucket(bucket).key("bench/data.bin"), RequestBody.fromBytes(data));
      String endpoint = storeEndpoint(minio.endpoint());
      if (impl.startsWith("s3a")) {
        BenchmarkSupport.s3a(conf, minio, endpoint);
        fs = FileSystem.newInstance(URI.create("s3a://" + bucket + "/"), conf);
        path = new Path("s3a://" + bucket + "/bench/data.bin");
        if (impl.equals("s3a-keep")) {
          keeper = Executors.newSingleThreadExecutor();
          keepDir = new File(scratch, "keep");
          Files.createDirectories(keepDir.toPath());
        }
      } else {
        BenchmarkSupport.cachedBenchTap(conf, minio, bucket, endpoint, new File(scratch, "cache"));
        if (impl.endsWith("-disk")) {
          conf.set("fs.dtap.cache.memory.size", "0");
        }
        if (impl.equals("cnode-disk")) {
          service = new CnodeProcess("bench", 0, "").start();
          for (Map.Entry<String, String> e : service.clientConf()) {
            conf.set(e.getKey(), e.getValue());
          }
        }
        fs = FileSystem.newInstance(URI.create("dtap://bench/"), conf);
        path = new Path("dtap://bench/data.bin");
      }
    }
    if (impl.startsWith("dtap-") && !impl.equals("dtap-cold") || impl.equals("cnode-disk")) {
      BenchmarkSupport.warm(fs, path, buffer, SIZE);
    }
    if (pattern.equals("rand64k")) {
      random = open("random");
    }
  }

  /** The endpoint the clients use: the store's own, or a shaping proxy's in front of it. */
  private String storeEndpoint(URI minio) throws IOException {
    proxy = proxyFor(store, minio);
    return proxy == null ? minio.toString() : proxy.endpoint().toString();
  }

  /**
   * @param store {@link #LOOPBACK} or {@code LATENCYms/MBITS}
   * @param minio the store's endpoint
   * @return a shaping proxy in front of the store as {@code store} says, or null for loopback
   * @throws IOException if the proxy cannot listen
   * @throws IllegalArgumentException if {@code store} is neither
   */
  static ShapingProxy proxyFor(String store, URI minio) throws IOException {
    if (store.equals(LOOPBACK)) {
      return null;
    }
    String[] parts = store.split("/");
    if (parts.length != 2 || !parts[0].endsWith("ms")) {
      throw new IllegalArgumentException(
          "store is " + LOOPBACK + " or LATENCYms/MBITS (e.g. 2ms/1000), not " + store);
    }
    Duration latency = Duration.ofMillis(Long.parseLong(parts[0].replace("ms", "").trim()));
    return ShapingProxy.start(minio, latency, Long.parseLong(parts[1].trim()) * 1_000_000L);
  }

  private long backendBytes() {
    return BenchmarkSupport.backendBytes(fs);
  }

  private FSDataInputStream open(String policy) throws IOException {
    return FutureIO.awaitFuture(
        fs.openFile(path).opt("fs.option.openfile.read.policy", policy).build());
  }

  @Setup(Level.Invocation)
  public void coldCache() throws Exception {
    if (impl.equals("dtap-cold")) {
      CacheAdmin.clearAll();
    }
    if (keeper != null) {
      settleKeeps();
      BenchmarkSupport.deleteTree(keepDir);
      Files.createDirectories(keepDir.toPath());
    }
  }

  /** Waits for the writes of the files kept so far. */
  private void settleKeeps() throws InterruptedException, ExecutionException {
    for (Future<?> f : keeping) {
      f.get();
    }
    keeping.clear();
  }

  /** Copies bytes read and queues their write to a new file: temporary name, then renamed. */
  private void keep(byte[] bytes, int length) {
    byte[] copy = Arrays.copyOf(bytes, length);
    java.nio.file.Path target = new File(keepDir, "page" + kept++).toPath();
    keeping.add(
        keeper.submit(
            () -> {
              java.nio.file.Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
              Files.write(tmp, copy);
              Files.move(tmp, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
              return null;
            }));
  }

  private long readAndKeep() throws IOException {
    long total = 0;
    try (FSDataInputStream in = open("sequential")) {
      int n;
      while ((n = readBuffer(in)) > 0) {
        keep(buffer, n);
        total += n;
      }
    }
    if (total != SIZE) {
      throw new IllegalStateException("read " + total + " of " + SIZE + " bytes");
    }
    return total;
  }

  /** Fills the buffer from the stream, short only at its end. */
  private int readBuffer(FSDataInputStream in) throws IOException {
    int filled = 0;
    int n;
    while (filled < buffer.length && (n = in.read(buffer, filled, buffer.length - filled)) > 0) {
      filled += n;
    }
    return filled;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException, InterruptedException, ExecutionException {
    if (random != null) {
      random.close();
    }
    fs.close();
    if (keeper != null) {
      settleKeeps(); // before the scratch directory goes: a write in flight would recreate it
      keeper.shutdown();
    }
    if (service != null) {
      service.close();
    }
    if (proxy != null) {
      proxy.close();
    }
    BenchmarkSupport.deleteTree(scratch);
  }

  private long readWhole() throws IOException {
    return BenchmarkSupport.readWhole(fs, path, buffer, SIZE);
  }

  @Benchmark
  public long read() throws IOException {
    if (pattern.equals("seq")) {
      return keeper != null ? readAndKeep() : readWhole();
    }
    long offset = (long) offsets.nextInt(SIZE - READ);
    random.readFully(offset, buffer, 0, READ);
    if (keeper != null) {
      keep(buffer, READ);
    }
    return buffer[0];
  }
}
