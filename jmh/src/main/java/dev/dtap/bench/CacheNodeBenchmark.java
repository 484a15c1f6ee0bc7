package dev.dtap.bench;

import dev.dtap.it.fixtures.CnodeProcess;
import dev.dtap.it.fixtures.FreePorts;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.ReaderProcess;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.util.functional.FutureIO;
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
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The host's cache service (the cnode) against the in-process cache and a local file.
 *
 * <ul>
 *   <li>{@code warmRead}, throughput: a 256 MiB file read whole ({@code seq}, 1 MiB buffer) or by
 *       one 64 KiB positioned read at a seeded random offset per op ({@code rand64k}), as in {@code
 *       ReadPathBenchmark}; {@code impl} = {@code local} (Hadoop's raw local filesystem), {@code
 *       dtap-warm} (a cached S3 tap over MinIO, this JVM's cache warm), {@code cnode-warm} (the
 *       same tap reading through a cache service in a process of its own, warm). {@code memory} =
 *       {@code default} (the JVM's memory tier at its default) or {@code 0} (no memory tier: what a
 *       new task JVM gets from the host).
 *   <li>{@code fourProcessesReadOneColdObject}, single shot: four task JVMs (processes) read one
 *       cold 256 MiB object through the service at once; {@code backendBytes} is what MinIO sent,
 *       {@code objectBytes} the object's size.
 *   <li>{@code peerRead}, single shot: host A (a service and a task JVM) reads the object cold,
 *       then host B's task JVM reads it; {@code backendBytes} is what MinIO sent for B's read.
 * </ul>
 *
 * <pre>java -jar jmh/target/benchmarks.jar CacheNodeBenchmark</pre>
 */
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx3g", "-XX:+UseParallelGC"})
public class CacheNodeBenchmark {
  static final int SIZE = 256 << 20;
  static final int READ = 64 << 10;

  private static byte[] data() {
    byte[] data = new byte[SIZE];
    new Random(42).nextBytes(data);
    return data;
  }

  private static long crc(byte[] data) {
    CRC32 c = new CRC32();
    c.update(data);
    return c.getValue();
  }

  /** A cached tap over a bucket, as a task JVM's configuration has it. */
  private static Configuration tap(MinioFixture minio, String bucket, File scratch) {
    Configuration conf = new Configuration();
    minio.addTap(conf, "bench", bucket, "bench");
    conf.set("fs.dtap.impl", "dev.dtap.fs.DataTapFileSystem");
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    conf.set("fs.dtap.tap.bench.cache", "true");
    conf.set("fs.dtap.cache.dirs", new File(scratch, "cache").getAbsolutePath());
    return conf;
  }

  /** Warm reads in this JVM. */
  @State(Scope.Benchmark)
  public static class Warm {
    @Param({"local", "dtap-warm", "cnode-warm"})
    public String impl;

    @Param({"seq", "rand64k"})
    public String pattern;

    @Param({"default"})
    public String memory;

    File scratch;
    FileSystem fs;
    Path path;
    FSDataInputStream random;
    CnodeProcess service;
    final byte[] buffer = new byte[1 << 20];
    final Random offsets = new Random(2026);

    @Setup(Level.Trial)
    public void setUp() throws Exception {
      byte[] data = data();
      scratch = BenchmarkSupport.scratch("cnode");
      if (impl.equals("local")) {
        File f = new File(scratch, "data.bin");
        Files.write(f.toPath(), data);
        fs = new RawLocalFileSystem();
        fs.initialize(URI.create("file:///"), new Configuration());
        path = new Path(f.toURI());
      } else {
        MinioFixture minio = MinioFixture.get();
        String bucket = minio.createBucket("cnodebench");
        minio
            .client()
            .putObject(b -> b.bucket(bucket).key("bench/data.bin"), RequestBody.fromBytes(data));
        Configuration conf = tap(minio, bucket, scratch);
        if (!memory.equals("default")) {
          conf.set("fs.dtap.cache.memory.size", memory);
        }
        if (impl.equals("cnode-warm")) {
          service = new CnodeProcess("bench", 0, "").start();
          for (Map.Entry<String, String> e : service.clientConf()) {
            conf.set(e.getKey(), e.getValue());
          }
        }
        fs = FileSystem.newInstance(URI.create("dtap://bench/"), conf);
        path = new Path("dtap://bench/data.bin");
        BenchmarkSupport.warm(fs, path, buffer, SIZE);
      }
      if (pattern.equals("rand64k")) {
        random =
            FutureIO.awaitFuture(
                fs.openFile(path).opt("fs.option.openfile.read.policy", "random").build());
      }
    }

    long backendBytes() {
      return BenchmarkSupport.backendBytes(fs);
    }

    long readWhole() throws IOException {
      return BenchmarkSupport.readWhole(fs, path, buffer, SIZE);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
      if (random != null) {
        random.close();
      }
      fs.close();
      if (service != null) {
        service.close();
      }
      BenchmarkSupport.deleteTree(scratch);
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @Warmup(iterations = 5, time = 4)
  @Measurement(iterations = 6, time = 4)
  public long warmRead(Warm w) throws IOException {
    if (w.pattern.equals("seq")) {
      return w.readWhole();
    }
    long offset = (long) w.offsets.nextInt(SIZE - READ);
    w.random.readFully(offset, w.buffer, 0, READ);
    return w.buffer[0];
  }

  /** What the store sent for one operation, against the object's size. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class StoreBytes {
    public long backendBytes;
    public long objectBytes;
  }

  /** One service and an object in MinIO; the service is emptied before each operation. */
  @State(Scope.Benchmark)
  public static class Cold {
    MinioFixture minio;
    String bucket;
    long crc;
    File scratch;
    final List<CnodeProcess> services = new ArrayList<>();

    @Setup(Level.Trial)
    public void setUp() throws Exception {
      byte[] data = data();
      crc = crc(data);
      minio = MinioFixture.get();
      bucket = minio.createBucket("cnodecold");
      minio
          .client()
          .putObject(b -> b.bucket(bucket).key("bench/data.bin"), RequestBody.fromBytes(data));
      scratch = BenchmarkSupport.scratch("cnodecold");
    }

    Configuration client(CnodeProcess service) {
      Configuration conf = tap(minio, bucket, scratch);
      conf.set("fs.dtap.cache.memory.size", "0");
      for (Map.Entry<String, String> e : service.clientConf()) {
        conf.set(e.getKey(), e.getValue());
      }
      return conf;
    }

    /** Fresh services per operation: cold, and nothing left of the previous one. */
    @Setup(Level.Invocation)
    public void coldServices() throws Exception {
      tearDownServices();
    }

    CnodeProcess start(String host, int port, String peers) throws Exception {
      CnodeProcess s = new CnodeProcess(host, port, peers).start();
      services.add(s);
      return s;
    }

    @TearDown(Level.Trial)
    public void tearDownServices() throws InterruptedException {
      for (CnodeProcess s : services) {
        s.close();
      }
      services.clear();
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 1)
  @Measurement(iterations = 3)
  public void fourProcessesReadOneColdObject(Cold c, StoreBytes bytes) throws Exception {
    CnodeProcess s = c.start("cold", 0, "");
    long before = c.minio.trafficSentBytes();
    List<ReaderProcess> readers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      readers.add(
          ReaderProcess.start("bench" + i, c.client(s), "dtap://bench/data.bin", c.crc, 1, null));
    }
    for (ReaderProcess r : readers) {
      if (r.result().get("mismatches") != 0) {
        throw new IllegalStateException("wrong bytes; see " + r.output());
      }
    }
    bytes.backendBytes += c.minio.trafficSentBytes() - before;
    bytes.objectBytes += SIZE;
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 1)
  @Measurement(iterations = 3)
  public void peerRead(Cold c, StoreBytes bytes) throws Exception {
    int portA = FreePorts.reserve();
    int portB = FreePorts.reserve();
    String peers = "hostA=127.0.0.1:" + portA + ",hostB=127.0.0.1:" + portB;
    CnodeProcess a = c.start("hostA", portA, peers);
    CnodeProcess b = c.start("hostB", portB, peers);
    ReaderProcess.start("peerA", locality(c.client(a)), "dtap://bench/data.bin", c.crc, 1, null)
        .result();
    // A hands B the pages B owns as it fills them; B's read follows once they are there
    for (int polls = 0;
        a.stat("cnode_peer_offers_sent") == 0
            || b.stat("cnode_offers") < a.stat("cnode_peer_offers_sent");
        polls++) {
      if (polls > 6000) {
        throw new IllegalStateException("host A never handed host B its pages");
      }
      Thread.sleep(20);
    }
    long before = c.minio.trafficSentBytes();
    Map<String, Long> r =
        ReaderProcess.start("peerB", locality(c.client(b)), "dtap://bench/data.bin", c.crc, 1, null)
            .result();
    if (r.get("mismatches") != 0) {
      throw new IllegalStateException("wrong bytes on host B");
    }
    bytes.backendBytes += c.minio.trafficSentBytes() - before;
    bytes.objectBytes += SIZE;
  }

  private static Configuration locality(Configuration conf) {
    conf.setBoolean("fs.dtap.tap.bench.locality", true);
    conf.set("fs.dtap.locality.membership", "static");
    conf.set("fs.dtap.locality.hosts", "hostA,hostB");
    conf.set("fs.dtap.block.size", "16m");
    return conf;
  }
}
