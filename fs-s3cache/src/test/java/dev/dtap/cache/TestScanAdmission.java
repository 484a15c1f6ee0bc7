package dev.dtap.cache;

import static dev.dtap.cache.CacheTestSupport.PAGE;
import static dev.dtap.cache.CacheTestSupport.counter;
import static dev.dtap.cache.CacheTestSupport.flush;
import static dev.dtap.cache.CacheTestSupport.randomFile;
import static dev.dtap.cache.CacheTestSupport.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;

/**
 * When a page one stream alone reads is cached ({@code fs.dtap.cache.scan.admission}): by default
 * at once while the cache has room, so that a job run again over the same input (in other JVMs,
 * through the disk tier) reads nothing from the backend; once the cache is nearly full, on the
 * second read, so that a one-off scan does not push out what is read again.
 */
class TestScanAdmission {
  private static final int LENGTH = 16 * PAGE;

  private Configuration conf(String quota) throws IOException {
    File root = LocalTaps.newDir("admission");
    randomFile(new File(root, "a.bin"), LENGTH, 7);
    randomFile(new File(root, "b.bin"), LENGTH, 8);
    Configuration conf =
        CacheTestSupport.cachedTap(
            "c", root, new File(LocalTaps.newDir("admission-cache"), "pages"));
    conf.unset("fs.dtap.cache.scan.admission"); // the default
    conf.set("fs.dtap.cache.max.size", quota);
    return conf;
  }

  private static void scan(FileSystem fs, String name) throws Exception {
    try (FSDataInputStream in = fs.open(LocalTaps.path("c", "/" + name))) {
      assertThat(readAll(in, 8192)).hasSize(LENGTH);
    }
    flush();
  }

  private static Set<String> pageFiles(Configuration conf) throws IOException {
    try (Stream<java.nio.file.Path> s =
        Files.walk(new File(conf.get("fs.dtap.cache.dirs")).toPath())) {
      return s.filter(p -> p.getFileName().toString().length() == 32)
          .map(p -> p.getFileName().toString())
          .collect(Collectors.toSet());
    }
  }

  @Test
  void withRoomAFirstScanIsCachedAndTheSameScanAgainReadsNothingFromTheBackend() throws Exception {
    Configuration conf = conf("1g");
    try (FileSystem first = LocalTaps.open(conf, "c")) {
      scan(first, "a.bin");
      assertThat(counter(first, CacheCounters.BYTES_BACKEND)).isEqualTo(LENGTH);
    }
    assertThat(pageFiles(conf)).as("every page of the first scan is on disk").hasSize(16);
    // the job again, as another JVM finds it (the first store is released): the pages on disk
    try (FileSystem again = LocalTaps.open(conf, "c")) {
      scan(again, "a.bin");
      assertThat(counter(again, CacheCounters.BYTES_BACKEND))
          .as("backend bytes of the repeat")
          .isZero();
      assertThat(counter(again, CacheCounters.HITS)).isGreaterThanOrEqualTo(16);
    }
  }

  @Test
  void aNearlyFullCacheCachesAScanOnItsSecondRead() throws Exception {
    Configuration conf = conf(String.valueOf(16L * (PAGE + 200)));
    try (FileSystem fs = LocalTaps.open(conf, "c")) {
      scan(fs, "a.bin"); // fills the cache
      Set<String> full = pageFiles(conf);
      scan(fs, "b.bin");
      assertThat(pageFiles(conf))
          .as("a first scan of another file on a nearly full cache streams through")
          .isEqualTo(full);
      scan(fs, "b.bin");
      assertThat(pageFiles(conf)).as("its second scan is cached").isNotEqualTo(full);
    }
  }

  @Test
  void onANearlyFullCacheTheNextJvmToScanAFileAgainCachesIt() throws Exception {
    Configuration conf = conf(String.valueOf(16L * (PAGE + 200)));
    try (FileSystem fs = LocalTaps.open(conf, "c")) {
      CacheTestSupport.awaitIndexed(); // no scan of the directories races the writes that fill them
      scan(fs, "a.bin"); // fills the cache
    }
    Set<String> full = pageFiles(conf);
    // each scan in a store of its own, as a job's tasks run in JVMs of their own
    try (FileSystem firstTask = LocalTaps.open(conf, "c")) {
      scan(firstTask, "b.bin");
    }
    assertThat(pageFiles(conf)).as("the first scan of b streams through").isEqualTo(full);
    try (FileSystem nextTask = LocalTaps.open(conf, "c")) {
      scan(nextTask, "b.bin");
    }
    assertThat(pageFiles(conf))
        .as("the host remembers that b was met: its next scan, in another JVM, is cached")
        .isNotEqualTo(full);
  }

  @Test
  void anUnknownAdmissionIsRefusedNamingTheKey() throws Exception {
    Configuration conf = conf("1g");
    conf.set("fs.dtap.cache.scan.admission", "sometimes");
    assertThatThrownBy(() -> CacheConfig.parse(conf))
        .hasMessageContaining("fs.dtap.cache.scan.admission")
        .hasMessageContaining("sometimes");
  }
}
