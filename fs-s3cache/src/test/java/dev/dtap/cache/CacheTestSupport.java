package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/** Local taps with the cache on, and helpers to read their counters. */
final class CacheTestSupport {
  static final int PAGE = 64 << 10;

  private CacheTestSupport() {}

  /** A configuration with tap {@code tap} over {@code root}, cached in {@code cacheDir}. */
  static Configuration cachedTap(String tap, File root, File cacheDir) {
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), tap, root);
    conf.set("fs.dtap.tap." + tap + ".cache", "true");
    conf.set("fs.dtap.cache.dirs", cacheDir.getAbsolutePath());
    conf.set("fs.dtap.cache.page.size", "64k");
    conf.set("fs.dtap.cache.memory.size", "0");
    conf.set("fs.dtap.cache.max.size", "1g");
    // a GC pause on a loaded machine is no slow disk: only the fault tests time the disk
    conf.set("fs.dtap.cache.deadline", "1m");
    // these tests follow pages through scan resistance: cached on their second read
    conf.set("fs.dtap.cache.scan.admission", "second-read");
    return conf;
  }

  static byte[] randomFile(File file, int length, long seed) throws IOException {
    byte[] data = new byte[length];
    new Random(seed).nextBytes(data);
    Files.write(file.toPath(), data);
    return data;
  }

  static long counter(FileSystem fs, String name) {
    Long v = ((IOStatisticsSource) fs).getIOStatistics().counters().get(name);
    return v == null ? 0 : v;
  }

  static byte[] readAll(InputStream in, int bufferSize) throws IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] buf = new byte[bufferSize];
    int n;
    while ((n = in.read(buf)) > 0) {
      out.write(buf, 0, n);
    }
    return out.toByteArray();
  }

  /** Waits until every queued disk write of the JVM's stores is done. */
  static void flush() throws InterruptedException {
    CacheAdmin.flushWrites();
  }

  /**
   * Waits until every open store of this JVM has scanned its directories, so that it knows how full
   * they are (admission's room) before it reads.
   */
  static void awaitIndexed() throws InterruptedException {
    for (PageStore s : PageStore.openStores()) {
      if (s.host() instanceof LocalHostTier) {
        assertThat(((LocalHostTier) s.host()).awaitIndexed(60, TimeUnit.SECONDS))
            .as("the store's first scan of its directories")
            .isTrue();
      }
    }
  }
}
