package dev.dtap.cache;

import static dev.dtap.cache.CacheTestSupport.PAGE;
import static dev.dtap.cache.CacheTestSupport.counter;
import static dev.dtap.cache.CacheTestSupport.flush;
import static dev.dtap.cache.CacheTestSupport.randomFile;
import static dev.dtap.cache.CacheTestSupport.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.cache.disk.DiskTier;
import dev.dtap.fs.testing.ConfigDocs;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.functional.FutureIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Reads through the cache on a local tap: correctness, hits, identity, corruption, quota. */
class TestCachedReads {
  private static final int LENGTH = 16 * PAGE + 1234;

  private File root;
  private File cacheDir;
  private Configuration conf;
  private FileSystem fs;
  private byte[] data;
  private final Path file = LocalTaps.path("c", "/data.bin");

  @BeforeEach
  void setUp() throws Exception {
    root = LocalTaps.newDir("cached");
    cacheDir = new File(LocalTaps.newDir("cachedir"), "pages");
    conf = CacheTestSupport.cachedTap("c", root, cacheDir);
    data = randomFile(new File(root, "data.bin"), LENGTH, 1);
    fs = LocalTaps.open(conf, "c");
  }

  @AfterEach
  void tearDown() throws IOException {
    fs.close();
  }

  /**
   * Caches the file: a lone sequential scan streams a page through the first time it meets it and
   * caches it the second time (scan resistance), so two passes fill the cache.
   */
  private void warm(FileSystem f) throws Exception {
    for (int pass = 0; pass < 2; pass++) {
      try (FSDataInputStream in = f.open(file)) {
        assertThat(readAll(in, 8192)).isEqualTo(data);
      }
    }
    flush();
  }

  private List<java.nio.file.Path> pageFiles() throws IOException {
    try (Stream<java.nio.file.Path> s = Files.walk(cacheDir.toPath())) {
      return s.filter(p -> p.getFileName().toString().length() == 32).collect(Collectors.toList());
    }
  }

  @Test
  void pagesCachedWithAnotherPageSizeAreNeverServed() throws Exception {
    warm(fs);
    assertThat(pageFiles()).isNotEmpty();
    Configuration bigger = new Configuration(conf);
    bigger.set("fs.dtap.cache.page.size", String.valueOf(2 * PAGE));
    bigger.set("fs.dtap.cache.scan.admission", "first-read");
    try (FileSystem other = LocalTaps.open(bigger, "c")) {
      for (int pass = 0; pass < 2; pass++) {
        try (FSDataInputStream in = other.open(file)) {
          assertThat(readAll(in, 8192))
              .as("pass %d with %d-byte pages", pass, 2 * PAGE)
              .isEqualTo(data);
        }
      }
    }
  }

  @Test
  void everyKindOfReadReturnsTheFileBytes() throws Exception {
    for (int buffer : new int[] {1, 1000, PAGE, 3 * PAGE + 17}) {
      try (FSDataInputStream in = fs.open(file)) {
        assertThat(readAll(in, buffer)).as("buffer %d", buffer).isEqualTo(data);
      }
    }
    Random r = new Random(2);
    try (FSDataInputStream in = fs.open(file)) {
      for (int i = 0; i < 500; i++) {
        long pos = r.nextInt(LENGTH);
        int len = 1 + r.nextInt(Math.min(3 * PAGE, (int) (LENGTH - pos)));
        byte[] buf = new byte[len];
        in.readFully(pos, buf);
        assertThat(buf).isEqualTo(Arrays.copyOfRange(data, (int) pos, (int) pos + len));
        in.seek(pos);
        assertThat(in.read()).isEqualTo(data[(int) pos] & 0xff);
        ByteBuffer bb = ByteBuffer.allocateDirect(len);
        in.readFully(pos, bb);
        bb.flip();
        byte[] back = new byte[len];
        bb.get(back);
        assertThat(back).isEqualTo(buf);
      }
      assertThat(in.read(LENGTH, new byte[1], 0, 1)).isEqualTo(-1);
    }
    try (FSDataInputStream in =
        FutureIO.awaitFuture(
            fs.openFile(file).opt("fs.option.openfile.read.policy", "vector").build())) {
      List<FileRange> ranges = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        ranges.add(FileRange.createFileRange(i * (LENGTH / 20), 1000 + i));
      }
      in.readVectored(ranges, ByteBuffer::allocate);
      for (FileRange range : ranges) {
        ByteBuffer b = range.getData().get();
        byte[] got = new byte[b.remaining()];
        b.get(got);
        int off = (int) range.getOffset();
        assertThat(got).isEqualTo(Arrays.copyOfRange(data, off, off + range.getLength()));
      }
    }
  }

  @Test
  void aScanIsCachedWhenReadAgainAndThenServedFromTheCache() throws Exception {
    try (FSDataInputStream in = fs.open(file)) {
      readAll(in, 8192);
    }
    flush();
    assertThat(counter(fs, CacheCounters.BYTES_BACKEND)).isEqualTo(LENGTH);
    // the first pass streamed through: nothing cached yet
    assertThat(pageFiles()).isEmpty();
    try (FSDataInputStream in = fs.open(file)) {
      assertThat(readAll(in, 8192)).isEqualTo(data);
    }
    flush();
    assertThat(pageFiles()).hasSize(17);
    long backend = counter(fs, CacheCounters.BYTES_BACKEND);
    try (FSDataInputStream in = fs.open(file)) {
      assertThat(readAll(in, 8192)).isEqualTo(data);
    }
    assertThat(counter(fs, CacheCounters.BYTES_BACKEND)).isEqualTo(backend);
    assertThat(counter(fs, CacheCounters.BYTES_DISK) + counter(fs, CacheCounters.BYTES_MEMORY))
        .isGreaterThanOrEqualTo(LENGTH);
    assertThat(counter(fs, CacheCounters.HITS)).isGreaterThanOrEqualTo(17);
  }

  @Test
  void positionedReadsAreCachedWhenMetAgain() throws Exception {
    byte[] buf = new byte[PAGE];
    for (int pass = 0; pass < 2; pass++) {
      try (FSDataInputStream in = fs.open(file)) {
        for (int page = 0; page < 16; page += 3) {
          in.readFully((long) page * PAGE, buf);
        }
      }
      flush();
      // the first time streams through, the second caches the six pages
      assertThat(pageFiles()).hasSize(pass == 0 ? 0 : 6);
    }
    long backend = counter(fs, CacheCounters.BYTES_BACKEND);
    try (FSDataInputStream in = fs.open(file)) {
      byte[] small = new byte[100];
      in.readFully(9L * PAGE + 7, small);
      assertThat(small).isEqualTo(Arrays.copyOfRange(data, 9 * PAGE + 7, 9 * PAGE + 107));
    }
    assertThat(counter(fs, CacheCounters.BYTES_BACKEND)).isEqualTo(backend);
  }

  @Test
  void aChangedFileIsNeverServedFromTheOldVersion() throws Exception {
    try (FSDataInputStream in = fs.open(file)) {
      readAll(in, 8192);
    }
    flush();
    byte[] next = randomFile(new File(root, "data.bin"), LENGTH, 99); // same length, new bytes
    assertThat(new File(root, "data.bin").setLastModified(System.currentTimeMillis() + 10_000))
        .isTrue();
    try (FSDataInputStream in = fs.open(file)) {
      assertThat(readAll(in, 8192)).isEqualTo(next);
    }
  }

  @Test
  void corruptAndTruncatedPagesAreDetectedDeletedAndRefetched() throws Exception {
    warm(fs);
    List<java.nio.file.Path> pages = pageFiles();
    // data bytes of the two damaged pages (each a header padded to 4 KiB, then the data)
    long damaged = Files.size(pages.get(0)) - 4096 + Files.size(pages.get(1)) - 4096;
    try (RandomAccessFile f = new RandomAccessFile(pages.get(0).toFile(), "rw")) {
      f.seek(f.length() - 10);
      int b = f.read();
      f.seek(f.length() - 10);
      f.write(b ^ 0x40); // flip a bit in the data
    }
    try (RandomAccessFile f = new RandomAccessFile(pages.get(1).toFile(), "rw")) {
      f.setLength(f.length() / 2); // torn
    }
    long backend = counter(fs, CacheCounters.BYTES_BACKEND);
    try (FSDataInputStream in = fs.open(file)) {
      assertThat(readAll(in, 8192)).isEqualTo(data);
    }
    assertThat(counter(fs, CacheCounters.CORRUPT)).isEqualTo(2);
    assertThat(counter(fs, CacheCounters.BYTES_BACKEND) - backend).isEqualTo(damaged);
    flush();
    assertThat(pageFiles()).hasSize(17); // rewritten
  }

  @Test
  void concurrentReadersOfAColdFileReadTheBackendOnce() throws Exception {
    int threads = 16;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<byte[]>> results = new ArrayList<>();
    List<FSDataInputStream> streams = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      streams.add(fs.open(file)); // sixteen readers of one file at once
    }
    for (int t = 0; t < threads; t++) {
      int buffer = 4096 + t * 997;
      FSDataInputStream stream = streams.get(t);
      results.add(
          pool.submit(
              () -> {
                start.await();
                try (FSDataInputStream in = stream) {
                  return readAll(in, buffer);
                }
              }));
    }
    start.countDown();
    for (Future<byte[]> f : results) {
      assertThat(f.get()).isEqualTo(data);
    }
    pool.shutdown();
    flush();
    assertThat(counter(fs, CacheCounters.BYTES_BACKEND)).as("backend bytes").isEqualTo(LENGTH);
  }

  @Test
  void theQuotaEvictsPages() throws Exception {
    Configuration small = new Configuration(conf);
    small.set("fs.dtap.cache.dirs", new File(LocalTaps.newDir("quota"), "pages").getAbsolutePath());
    small.set("fs.dtap.cache.max.size", String.valueOf(6 * (PAGE + 200)));
    try (FileSystem f = LocalTaps.open(small, "c")) {
      warm(f);
      HostTier host =
          PageStore.openStores().stream()
              .filter(s -> s.config().dirs().get(0).toString().contains("quota"))
              .findFirst()
              .get()
              .host();
      DiskTier disk = ((LocalHostTier) host).disk();
      assertThat(disk.usedBytes()).isLessThanOrEqualTo(disk.quotaBytes());
      assertThat(counter(f, CacheCounters.EVICTIONS)).isGreaterThan(0);
      try (FSDataInputStream in = f.open(file)) {
        assertThat(readAll(in, PAGE)).isEqualTo(data);
      }
    }
  }

  @Test
  void theCacheComesBackAfterARestart() throws Exception {
    warm(fs);
    fs.close(); // the store is released: a new one starts from the directories
    fs = LocalTaps.open(conf, "c");
    try (FSDataInputStream in = fs.open(file)) {
      assertThat(readAll(in, 8192)).isEqualTo(data);
    }
    assertThat(counter(fs, CacheCounters.BYTES_BACKEND)).isZero();
    assertThat(counter(fs, CacheCounters.BYTES_DISK)).isEqualTo(LENGTH);
  }

  @Test
  void sequentialReadsPrefetchAndRandomReadsDoNot() throws Exception {
    for (int pass = 0; pass < 2; pass++) { // the second pass caches, reading ahead
      try (FSDataInputStream in = fs.open(file)) {
        byte[] buf = new byte[4096];
        for (int i = 0; i < LENGTH / 4096; i++) {
          in.readFully(buf);
          if (i % 16 == 0) {
            flush(); // the reader works while the prefetcher reads ahead: let it land
          }
        }
      }
    }
    flush();
    assertThat(counter(fs, CacheCounters.PREFETCH_USED)).isGreaterThan(0);

    Files.write(new File(root, "random.bin").toPath(), Arrays.copyOf(data, LENGTH));
    try (FileSystem f = LocalTaps.open(conf, "c");
        FSDataInputStream in =
            FutureIO.awaitFuture(
                f.openFile(LocalTaps.path("c", "/random.bin"))
                    .opt("fs.option.openfile.read.policy", "random")
                    .build())) {
      long before =
          counter(f, CacheCounters.PREFETCH_USED) + counter(f, CacheCounters.PREFETCH_SKIPPED);
      byte[] buf = new byte[1000];
      in.readFully(5 * PAGE + 10, buf);
      in.readFully(1 * PAGE + 10, buf);
      in.readFully(9 * PAGE + 10, buf);
      assertThat(buf).isEqualTo(Arrays.copyOfRange(data, 9 * PAGE + 10, 9 * PAGE + 1010));
      flush();
      assertThat(
              counter(f, CacheCounters.PREFETCH_USED) + counter(f, CacheCounters.PREFETCH_SKIPPED))
          .isEqualTo(before);
    }
  }

  @Test
  void aColdRandomReadAcrossAPageBoundaryIsOneBackendRead() throws Exception {
    assertColdReadAcrossAPageBoundaryIsOneBackendRead("random");
  }

  @Test
  void parquetsListOfReadPoliciesCountsAsRandom() throws Exception {
    // what Parquet 1.16's reader asks for; the first entry the cache knows decides
    assertColdReadAcrossAPageBoundaryIsOneBackendRead("parquet, vector, random, adaptive");
  }

  private void assertColdReadAcrossAPageBoundaryIsOneBackendRead(String policy) throws Exception {
    try (FSDataInputStream in =
        FutureIO.awaitFuture(
            fs.openFile(file).opt("fs.option.openfile.read.policy", policy).build())) {
      byte[] buf = new byte[PAGE];
      long start = 3L * PAGE + PAGE / 2; // half of page 3, half of page 4
      in.readFully(start, buf);
      assertThat(buf).isEqualTo(Arrays.copyOfRange(data, (int) start, (int) start + PAGE));
      assertThat(counter(fs, CacheCounters.BACKEND_READS)).isEqualTo(1);
      assertThat(counter(fs, CacheCounters.MISSES)).isEqualTo(2);

      // met before now: the pages are loaded and cached, and the bytes are the same
      in.readFully(start, buf);
      flush();
      assertThat(buf).isEqualTo(Arrays.copyOfRange(data, (int) start, (int) start + PAGE));
      long backendReads = counter(fs, CacheCounters.BACKEND_READS);
      in.readFully(start, buf);
      assertThat(buf).isEqualTo(Arrays.copyOfRange(data, (int) start, (int) start + PAGE));
      assertThat(counter(fs, CacheCounters.BACKEND_READS)).isEqualTo(backendReads);
    }
  }

  @Test
  void directoriesArePrivateAndPagesTooAndKeysAreDocumented() throws Exception {
    warm(fs);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cacheDir.toPath())))
        .isEqualTo("rwx------");
    java.nio.file.Path page = pageFiles().get(0);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(page)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(page.getParent())))
        .isEqualTo("rwx------");
    ConfigDocs.assertDocumented(CacheKeys.all());
  }
}
