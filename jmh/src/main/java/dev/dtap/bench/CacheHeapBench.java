package dev.dtap.bench;

import dev.dtap.cache.CacheAdmin;
import dev.dtap.it.fixtures.MinioFixture;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.functional.FutureIO;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The heap the cache holds in a task-sized JVM: 32 readers at once, each reading an object of its
 * own (32 MiB, sequentially, 64 KiB reads) through S3A alone, then through a cached tap cold (pages
 * fetched and written) and warm (pages from the disk). Four times during each pass every reader
 * stops at a barrier and the live heap is measured twice: the bytes of the live objects (a class
 * histogram's total) and the heap's occupancy after a full collection (with G1, a 1 MiB page is a
 * humongous object holding two regions); each figure is the largest of the stops, less the same
 * before the pass's streams were opened. The cache's declared budgets for the heap it runs in are
 * printed beside it.
 *
 * <pre>java -Xmx1g -cp jmh/target/benchmarks.jar dev.dtap.bench.CacheHeapBench</pre>
 *
 * <p>A bench main, not a JMH benchmark: it measures retained memory, not time.
 */
public final class CacheHeapBench {
  static final int READERS = 32;
  static final int SIZE = 32 << 20;
  static final int READ = 64 << 10;
  static final int STOPS = 4;

  private CacheHeapBench() {}

  public static void main(String[] args) throws Exception {
    File scratch = BenchmarkSupport.scratch("heap");
    MinioFixture minio = MinioFixture.get();
    String bucket = minio.createBucket("heap");
    byte[] data = new byte[SIZE];
    for (int i = 0; i < READERS; i++) {
      new Random(i).nextBytes(data);
      int n = i;
      minio
          .client()
          .putObject(b -> b.bucket(bucket).key("bench/part-" + n), RequestBody.fromBytes(data));
    }
    data = null;
    System.out.printf("heap: max %d MiB%n", Runtime.getRuntime().maxMemory() >> 20);

    Configuration s3a = new Configuration();
    minio.configureS3a(s3a);
    s3a.setBoolean("fs.s3a.impl.disable.cache", true);
    try (FileSystem fs = FileSystem.newInstance(URI.create("s3a://" + bucket + "/"), s3a)) {
      pass("s3a", fs, "s3a://" + bucket + "/bench/part-");
    }
    Configuration tap = new Configuration();
    minio.addTap(tap, "bench", bucket, "bench");
    tap.setBoolean("fs.dtap.impl.disable.cache", true);
    tap.set("fs.dtap.tap.bench.cache", "true");
    tap.set("fs.dtap.cache.dirs", new File(scratch, "cache").getAbsolutePath());
    try (FileSystem fs = FileSystem.newInstance(URI.create("dtap://bench/"), tap)) {
      fs.getFileStatus(new Path("dtap://bench/part-0")); // the cache opens with the tap's first use
      System.out.print("the cache's budgets here: " + CacheAdmin.heapBudgets());
      pass("dtap-cold", fs, "dtap://bench/part-");
      CacheAdmin.flushWrites();
      pass("dtap-warm", fs, "dtap://bench/part-");
    }
    BenchmarkSupport.deleteTree(scratch);
    System.exit(0);
  }

  /** Bytes of the live objects (a class histogram's total, after the full collection it runs). */
  private static long liveObjects() {
    try {
      Process p =
          new ProcessBuilder(
                  Paths.get(System.getProperty("java.home"), "bin", "jcmd").toString(),
                  Long.toString(ProcessHandle.current().pid()),
                  "GC.class_histogram")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      Matcher total = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)").matcher(out);
      if (p.waitFor() != 0 || !total.find()) {
        throw new IllegalStateException("jcmd GC.class_histogram gave no total: " + out);
      }
      return Long.parseLong(total.group(1));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The heap's occupancy after a full collection: with G1 a 1 MiB page is a humongous object
   * holding two 1 MiB regions, so this is about twice the pages' bytes.
   */
  private static long heapUsed() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static void pass(String name, FileSystem fs, String prefix) throws Exception {
    long objectsBefore = liveObjects();
    long usedBefore = heapUsed();
    long[] peak = {0, 0};
    CyclicBarrier stop =
        new CyclicBarrier(
            READERS,
            () -> {
              peak[0] = Math.max(peak[0], liveObjects() - objectsBefore);
              peak[1] = Math.max(peak[1], heapUsed() - usedBefore);
            });
    ExecutorService pool = Executors.newFixedThreadPool(READERS);
    List<Future<Long>> reads = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < READERS; i++) {
      Path path = new Path(prefix + i);
      reads.add(
          pool.submit(
              () -> {
                byte[] buf = new byte[READ];
                long total = 0;
                int stops = 0;
                try (FSDataInputStream in =
                    FutureIO.awaitFuture(
                        fs.openFile(path)
                            .opt("fs.option.openfile.read.policy", "sequential")
                            .build())) {
                  int n;
                  while ((n = in.read(buf, 0, buf.length)) > 0) {
                    total += n;
                    if (stops < STOPS && total >= (long) SIZE * (stops + 1) / (STOPS + 1)) {
                      stops++;
                      stop.await();
                    }
                  }
                }
                return total;
              }));
    }
    for (Future<Long> r : reads) {
      if (r.get() != SIZE) {
        throw new IllegalStateException(name + ": a reader read " + r.get() + " bytes");
      }
    }
    pool.shutdown();
    System.out.printf(
        "%-10s %d readers x %d MiB, largest of %d stops above the idle JVM: live objects %d MiB,"
            + " heap occupied %d MiB (%.1f s)%n",
        name,
        READERS,
        SIZE >> 20,
        STOPS,
        peak[0] >> 20,
        peak[1] >> 20,
        (System.nanoTime() - start) / 1e9);
  }
}
