package dev.dtap.cache;

import static dev.dtap.cache.CacheTestSupport.PAGE;
import static dev.dtap.cache.CacheTestSupport.counter;
import static dev.dtap.cache.CacheTestSupport.randomFile;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.functional.FutureIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Positioned reads may run on several threads at once, beside the stream's own reads: they use what
 * the stream holds but never move its state (the page it is in, its read-ahead).
 */
class TestPositionedReads {
  private static final int LENGTH = 12 * PAGE + 777;

  private FileSystem fs;
  private byte[] data;
  private final Path file = LocalTaps.path("p", "/data.bin");
  private final ExecutorService threads = Executors.newFixedThreadPool(3);

  @BeforeEach
  void setUp() throws Exception {
    File root = LocalTaps.newDir("positioned");
    Configuration conf =
        CacheTestSupport.cachedTap("p", root, new File(LocalTaps.newDir("pcache"), "pages"));
    // every page met is cached, so a sequential reader reads ahead from its first page
    conf.set("fs.dtap.cache.scan.admission", "first-read");
    data = randomFile(new File(root, "data.bin"), LENGTH, 5);
    fs = LocalTaps.open(conf, "p");
  }

  @AfterEach
  void tearDown() throws IOException {
    threads.shutdownNow();
    fs.close();
  }

  private FSDataInputStream openSequential() throws IOException {
    return FutureIO.awaitFuture(
        fs.openFile(file).opt("fs.option.openfile.read.policy", "sequential").build());
  }

  private long prefetchCounters() {
    return counter(fs, CacheCounters.PREFETCH_USED)
        + counter(fs, CacheCounters.PREFETCH_WASTED)
        + counter(fs, CacheCounters.PREFETCH_SKIPPED);
  }

  @Test
  void positionedReadsOfASequentialStreamDoNotDriveItsReadAhead() throws Exception {
    try (FSDataInputStream in = openSequential()) {
      byte[] got = new byte[LENGTH];
      for (int off = 0; off < LENGTH; off += PAGE / 2) {
        in.readFully(off, got, off, Math.min(PAGE / 2, LENGTH - off));
      }
      assertThat(got).isEqualTo(data);
      assertThat(in.getPos()).as("a positioned read does not move the stream").isZero();
    }
    CacheTestSupport.flush();
    // read-ahead is queued by the stream's own reads only, whose state one thread owns
    assertThat(prefetchCounters()).isZero();

    try (FSDataInputStream in = openSequential()) {
      byte[] got = new byte[LENGTH];
      // reads smaller than a page, which go through whole pages (larger ones are copied straight
      // from the disk's page files, which need no read-ahead)
      for (int off = 0; off < LENGTH; off += PAGE / 4) {
        in.readFully(got, off, Math.min(PAGE / 4, LENGTH - off));
      }
      assertThat(got).isEqualTo(data);
    }
    assertThat(prefetchCounters()).as("the stream's own reads do read ahead").isPositive();
  }

  @Test
  void aPositionedReadUsesAPageReadAheadButLeavesItForTheStream() throws Exception {
    try (FSDataInputStream in = openSequential()) {
      byte[] got = new byte[PAGE];
      in.readFully(got); // page 0: pages 1.. are read ahead
      CacheTestSupport.flush();

      byte[] at = new byte[100];
      in.readFully(PAGE + 5, at);
      assertThat(at).isEqualTo(Arrays.copyOfRange(data, PAGE + 5, PAGE + 105));
      assertThat(counter(fs, CacheCounters.PREFETCH_USED))
          .as("taken by the positioned read")
          .isZero();

      in.readFully(got); // page 1, by the stream
      assertThat(got).isEqualTo(Arrays.copyOfRange(data, PAGE, 2 * PAGE));
      assertThat(counter(fs, CacheCounters.PREFETCH_USED)).as("taken by the stream").isEqualTo(1);
    }
  }

  @Test
  void positionedReadsOnSeveralThreadsBesideTheStreamGetTheirOwnBytes() throws Exception {
    for (int pass = 0; pass < 3; pass++) {
      try (FSDataInputStream in = openSequential()) {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> readers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
          long seed = pass * 10L + t;
          readers.add(threads.submit(() -> positionedReads(in, go, new Random(seed))));
        }
        go.countDown();
        // the stream reads the file again and again for as long as the positioned reads run
        do {
          in.seek(0);
          byte[] streamed = new byte[LENGTH];
          int done = 0;
          while (done < LENGTH) {
            int n = in.read(streamed, done, Math.min(8192, LENGTH - done));
            assertThat(n).isPositive();
            done += n;
          }
          assertThat(streamed).as("the stream's own bytes, pass %d", pass).isEqualTo(data);
        } while (!readers.stream().allMatch(Future::isDone));
        for (Future<Integer> r : readers) {
          assertThat(r.get()).as("positioned reads checked").isEqualTo(200);
        }
      }
    }
  }

  /** Reads at seeded offsets, each checked against the file: the number of reads checked. */
  private int positionedReads(FSDataInputStream in, CountDownLatch go, Random random)
      throws Exception {
    go.await();
    int checked = 0;
    for (int i = 0; i < 200; i++) {
      int len = 1 + random.nextInt(2 * PAGE);
      int at = random.nextInt(LENGTH - len + 1);
      byte[] got = new byte[len];
      in.readFully(at, got);
      assertThat(got)
          .as("%d bytes at %d", len, at)
          .isEqualTo(Arrays.copyOfRange(data, at, at + len));
      checked++;
    }
    return checked;
  }
}
