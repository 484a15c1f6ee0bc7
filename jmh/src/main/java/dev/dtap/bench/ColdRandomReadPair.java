package dev.dtap.bench;

import dev.dtap.cache.CacheAdmin;
import dev.dtap.it.fixtures.MinioFixture;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.functional.FutureIO;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Cold random reads through a cached tap against S3A, interleaved read by read in one JVM against
 * one MinIO: the same 64 KiB range is read through both, in alternating order, with the cache
 * emptied before every read. Where {@link ReadPathBenchmark} compares forks whose spread on a
 * shared two-core machine exceeds the difference being measured, this compares neighbours.
 *
 * <pre>java -cp jmh/target/benchmarks.jar dev.dtap.bench.ColdRandomReadPair [rounds] [pairs]</pre>
 *
 * Prints, per round, the mean time per read of each and their ratio as throughput (s3a time over
 * dtap time, so above 1 means the tap is faster), then the median of the round ratios.
 */
public final class ColdRandomReadPair {
  private static final int SIZE = 256 << 20;
  private static final int READ = 64 << 10;

  private ColdRandomReadPair() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int pairs = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    File scratch = BenchmarkSupport.scratch("coldpair");
    try {
      run(rounds, pairs, scratch);
    } finally {
      BenchmarkSupport.deleteTree(scratch);
    }
    System.exit(0); // the fixture's server threads are not daemons
  }

  private static void run(int rounds, int pairs, File scratch) throws Exception {
    byte[] data = new byte[SIZE];
    new Random(42).nextBytes(data);
    MinioFixture minio = MinioFixture.get();
    String bucket = minio.createBucket("coldpair");
    minio
        .client()
        .putObject(b -> b.bucket(bucket).key("bench/data.bin"), RequestBody.fromBytes(data));

    Configuration s3aConf = minio.configureS3a(new Configuration());
    s3aConf.setBoolean("fs.s3a.impl.disable.cache", true);
    Configuration tapConf = minio.addTap(new Configuration(), "pair", bucket, "bench");
    tapConf.setBoolean("fs.dtap.impl.disable.cache", true);
    tapConf.set("fs.dtap.tap.pair.cache", "true");
    tapConf.set("fs.dtap.cache.dirs", new File(scratch, "cache").getAbsolutePath());

    try (FileSystem s3a = FileSystem.newInstance(URI.create("s3a://" + bucket + "/"), s3aConf);
        FileSystem dtap = FileSystem.newInstance(URI.create("dtap://pair/"), tapConf);
        FSDataInputStream viaS3a =
            openRandom(s3a, new Path("s3a://" + bucket + "/bench/data.bin"));
        FSDataInputStream viaTap = openRandom(dtap, new Path("dtap://pair/data.bin"))) {
      byte[] buffer = new byte[READ];
      byte[] check = new byte[READ];
      Random offsets = new Random(2026);
      measure(viaS3a, viaTap, offsets, pairs, buffer, check, data); // warm-up: JIT, connections
      double[] ratios = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        long[] nanos = measure(viaS3a, viaTap, offsets, pairs, buffer, check, data);
        ratios[r] = (double) nanos[0] / nanos[1];
        System.out.printf(
            "round %2d: s3a %7.0f us/read, dtap-cold %7.0f us/read, dtap-cold/s3a throughput"
                + " %.3fx%n",
            r + 1, nanos[0] / 1e3 / pairs, nanos[1] / 1e3 / pairs, ratios[r]);
      }
      Arrays.sort(ratios);
      double median =
          rounds % 2 == 1 ? ratios[rounds / 2] : (ratios[rounds / 2 - 1] + ratios[rounds / 2]) / 2;
      System.out.printf(
          "median of %d rounds of %d pairs: dtap-cold/s3a throughput %.3fx (range %.3f to %.3f)%n",
          rounds, pairs, median, ratios[0], ratios[rounds - 1]);
      System.out.println("s3a stream: " + streamCounters(viaS3a));
      System.out.println("dtap stream: " + streamCounters(viaTap));
    }
  }

  /** The counters that tell how many requests each read cost. */
  private static String streamCounters(FSDataInputStream in) {
    java.util.Map<String, Long> all = in.getIOStatistics().counters();
    java.util.Map<String, Long> shown = new java.util.TreeMap<>();
    all.forEach(
        (k, v) -> {
          if (v != 0
              && (k.startsWith("stream_read_")
                  || k.startsWith("dtap_cache_")
                  || k.startsWith("action_http"))) {
            shown.put(k, v);
          }
        });
    return shown.toString();
  }

  private static FSDataInputStream openRandom(FileSystem fs, Path path) throws IOException {
    return FutureIO.awaitFuture(
        fs.openFile(path).opt("fs.option.openfile.read.policy", "random").build());
  }

  /**
   * @return total nanoseconds reading through S3A and through the tap
   */
  private static long[] measure(
      FSDataInputStream viaS3a,
      FSDataInputStream viaTap,
      Random offsets,
      int pairs,
      byte[] buffer,
      byte[] check,
      byte[] data)
      throws Exception {
    long s3aNanos = 0;
    long tapNanos = 0;
    for (int i = 0; i < pairs; i++) {
      long offset = offsets.nextInt(SIZE - READ);
      boolean tapFirst = (i & 1) == 0; // neither side always reads first
      for (int side = 0; side < 2; side++) {
        boolean tap = (side == 0) == tapFirst;
        CacheAdmin.clearAll();
        long start = System.nanoTime();
        (tap ? viaTap : viaS3a).readFully(offset, tap ? buffer : check, 0, READ);
        long took = System.nanoTime() - start;
        if (tap) {
          tapNanos += took;
        } else {
          s3aNanos += took;
        }
      }
      if (!Arrays.equals(buffer, check) || buffer[0] != data[(int) offset]) {
        throw new IllegalStateException("the two reads at " + offset + " differ");
      }
    }
    return new long[] {s3aNanos, tapNanos};
  }
}
