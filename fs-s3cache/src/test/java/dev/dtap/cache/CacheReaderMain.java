package dev.dtap.cache;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.security.MessageDigest;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;

/**
 * A second JVM for {@link TestTwoJvms}: reads one file of a cached local tap and prints what it
 * saw, as {@code sha256=... backend=... disk=... corrupt=...}.
 *
 * <p>Arguments: tap root, cache directory, file name, how many times to read it (default 1), and a
 * cache quota (default: the tests' own, with every first read cached); with a quota, the default
 * admission.
 */
public final class CacheReaderMain {
  private CacheReaderMain() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = CacheTestSupport.cachedTap("two", new File(args[0]), new File(args[1]));
    if (args.length > 4) {
      conf.unset("fs.dtap.cache.scan.admission");
      conf.set("fs.dtap.cache.max.size", args[4]);
    }
    try (FileSystem fs = LocalTaps.open(conf, "two")) {
      CacheTestSupport.awaitIndexed(); // no scan of the directories races the writes that fill them
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      int passes = args.length > 3 ? Integer.parseInt(args[3]) : 1;
      for (int pass = 0; pass < passes; pass++) {
        sha.reset();
        try (FSDataInputStream in = fs.open(LocalTaps.path("two", "/" + args[2]))) {
          sha.update(CacheTestSupport.readAll(in, 10_000));
        }
      }
      CacheAdmin.flushWrites();
      StringBuilder hex = new StringBuilder();
      for (byte b : sha.digest()) {
        hex.append(String.format("%02x", b));
      }
      System.out.println(
          "sha256="
              + hex
              + " backend="
              + CacheTestSupport.counter(fs, CacheCounters.BYTES_BACKEND)
              + " disk="
              + CacheTestSupport.counter(fs, CacheCounters.BYTES_DISK)
              + " corrupt="
              + CacheTestSupport.counter(fs, CacheCounters.CORRUPT));
    }
  }
}
