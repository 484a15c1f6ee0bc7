package dev.dtap.cache;

import static dev.dtap.cache.CacheTestSupport.PAGE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.cache.disk.DiskIo;
import dev.dtap.fs.config.DataTapConfig;
import dev.dtap.fs.config.TapConfig;
import dev.dtap.fs.spi.OpenRequest;
import dev.dtap.fs.testing.CapabilityFileSystem;
import dev.dtap.fs.testing.LocalTaps;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.impl.OpenFileParameters;
import org.apache.hadoop.util.functional.FutureIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A cold vectored read asks the backend for the missing page runs in one vectored read and returns
 * before they land; each range completes as the runs under it land, and only what landed whole is
 * kept.
 */
class TestVectoredRead {
  private static final int LENGTH = 8 * PAGE + 17;

  private byte[] data;
  private Path backendPath;
  private HeldFileSystem backend;
  private Configuration conf;
  private DtapReadCache cache;
  private final ExecutorService other = Executors.newSingleThreadExecutor();

  @BeforeEach
  void setUp() throws IOException {
    File root = LocalTaps.newDir("vectored");
    data = CacheTestSupport.randomFile(new File(root, "f.bin"), LENGTH, 11);
    backendPath = new Path(new File(root, "f.bin").toURI());
    conf = CacheTestSupport.cachedTap("vr", root, new File(LocalTaps.newDir("vrcache"), "pages"));
    conf.set("fs.dtap.cache.scan.admission", "first-read");
    conf.set("fs.dtap.cache.memory.size", "16m");
    backend = new HeldFileSystem();
    backend.initialize(backendPath.toUri(), conf);
    cache = newCache();
  }

  /** A cache over the test's directories and backend, as a new JVM would open it. */
  private DtapReadCache newCache() throws IOException {
    TapConfig tap = DataTapConfig.parse(conf, CacheKeys.all()).tap("vr");
    PageStore store = PageStore.privateStore(CacheConfig.parse(conf), DiskIo.NIO);
    return new DtapReadCache(new BackendTap(tap, conf, backend), store);
  }

  private boolean cacheClosed;

  @AfterEach
  void tearDown() throws IOException {
    other.shutdownNow();
    if (!cacheClosed) {
      cache.close();
    }
  }

  private FSDataInputStream open() throws IOException {
    return cache.open(openRequest());
  }

  private OpenRequest openRequest() {
    return new OpenRequest(LocalTaps.path("vr", "/f.bin"), backendPath, null, 0, null);
  }

  private static List<FileRange> ranges(long... offsetsAndLengths) {
    List<FileRange> ranges = new ArrayList<>();
    for (int i = 0; i < offsetsAndLengths.length; i += 2) {
      ranges.add(FileRange.createFileRange(offsetsAndLengths[i], (int) offsetsAndLengths[i + 1]));
    }
    return ranges;
  }

  private byte[] bytesOf(FileRange r) throws IOException {
    ByteBuffer b = FutureIO.awaitFuture(r.getData()).duplicate();
    byte[] got = new byte[b.remaining()];
    b.get(got);
    return got;
  }

  private byte[] expected(FileRange r) {
    return Arrays.copyOfRange(data, (int) r.getOffset(), (int) r.getOffset() + r.getLength());
  }

  @Test
  void eachRangeCompletesAsTheRunsUnderItLandAndThenHitsTheCache() throws Exception {
    // page 0; pages 2-3 (a range across their boundary); page 6
    List<FileRange> ranges = ranges(100, 1000, 3L * PAGE - 50, 100, 6L * PAGE + 9, 500);
    try (FSDataInputStream in = open()) {
      in.readVectored(ranges, ByteBuffer::allocate);

      assertThat(backend.asked)
          .as("one backend call, a run of missing pages per range")
          .containsExactly("0+" + PAGE, 2 * PAGE + "+" + 2 * PAGE, 6 * PAGE + "+" + PAGE);
      assertThat(ranges).allMatch(r -> !r.getData().isDone());

      backend.answer(2, Answer.WHOLE);
      assertThat(bytesOf(ranges.get(2))).isEqualTo(expected(ranges.get(2)));
      assertThat(ranges.get(0).getData()).isNotDone();
      assertThat(ranges.get(1).getData()).isNotDone();

      backend.answer(0, Answer.WHOLE);
      backend.answer(1, Answer.WHOLE);
      for (FileRange r : ranges) {
        assertThat(bytesOf(r)).isEqualTo(expected(r));
      }
    }
    cache.store().flush();
    try (FSDataInputStream in = open()) {
      List<FileRange> again = ranges(100, 1000, 3L * PAGE - 50, 100, 6L * PAGE + 9, 500);
      in.readVectored(again, ByteBuffer::allocate);
      for (FileRange r : again) {
        assertThat(r.getData()).isDone();
        assertThat(bytesOf(r)).isEqualTo(expected(r));
      }
    }
    assertThat(backend.calls).as("backend vectored calls").isEqualTo(1);
    assertThat(backend.positioned).as("positioned backend reads").isZero();
  }

  /** Reopens the cache with second-read admission, its backend answering at once. */
  private void secondReadCache() throws IOException {
    cache.close();
    conf.set("fs.dtap.cache.scan.admission", "second-read");
    backend.answerAtOnce = true;
    cache = newCache();
  }

  /**
   * Reads the ranges in a cache opened as a new JVM opens it (after the last one's writes are
   * done), checks their bytes, and returns what the backend was asked.
   */
  private List<String> readInNextJvm(long... offsetsAndLengths) throws Exception {
    cache.store().flush();
    cache.close();
    backend.forget();
    cache = newCache();
    return readChecked(offsetsAndLengths);
  }

  private List<String> readChecked(long... offsetsAndLengths) throws Exception {
    List<FileRange> ranges = ranges(offsetsAndLengths);
    try (FSDataInputStream in = open()) {
      in.readVectored(ranges, ByteBuffer::allocate);
      for (FileRange r : ranges) {
        assertThat(bytesOf(r)).isEqualTo(expected(r));
      }
    }
    return new ArrayList<>(backend.asked);
  }

  @Test
  void rangesAdmissionDoesNotTakeStreamThroughAsTheyAreAndTheNextJvmToMeetThemCachesThem()
      throws Exception {
    secondReadCache();
    assertThat(readChecked(100, 1000, 3L * PAGE - 50, 100))
        .as("a first meeting asks the backend for the ranges themselves, not their pages")
        .containsExactly("100+1000", 3 * PAGE - 50 + "+100");
    assertThat(readInNextJvm(100, 1000, 3L * PAGE - 50, 100))
        .as("met again, in the next JVM: the pages under the ranges are fetched and kept")
        .containsExactly("0+" + PAGE, 2 * PAGE + "+" + 2 * PAGE);
    assertThat(readInNextJvm(100, 1000, 3L * PAGE - 50, 100))
        .as("the third reads the cache only")
        .isEmpty();
  }

  @Test
  void twoRangesInOnePageMeetItOnceAndBothStreamThrough() throws Exception {
    secondReadCache();
    assertThat(readChecked(100, 1000, 2000, 500))
        .as("the second range does not take the page the first just met for met before")
        .containsExactly("100+1000", "2000+500");
  }

  @Test
  void anAllocatorThatFailsFailsEveryRangeNotYetComplete() throws Exception {
    List<FileRange> ranges = ranges(100, 1000, 3L * PAGE, 100);
    AtomicInteger calls = new AtomicInteger();
    IntFunction<ByteBuffer> failsSecond =
        n -> {
          if (calls.incrementAndGet() == 2) {
            throw new IllegalStateException("no memory for a buffer");
          }
          return ByteBuffer.allocate(n);
        };
    try (FSDataInputStream in = open()) {
      assertThatThrownBy(() -> in.readVectored(ranges, failsSecond))
          .isInstanceOf(IllegalStateException.class);
    }
    assertThat(ranges)
        .as("no caller waits forever on a range the read gave up")
        .allMatch(r -> r.getData().isCompletedExceptionally());
    assertThat(backend.asked).isEmpty();
  }

  @Test
  void rangesSideBySideAreFetchedAsARunEachAndThePageTheyShareGoesWithTheFirst() throws Exception {
    int half = PAGE / 2;
    List<FileRange> ranges = ranges(0, PAGE + half, PAGE + half, 2 * PAGE);
    try (FSDataInputStream in = open()) {
      in.readVectored(ranges, ByteBuffer::allocate);

      assertThat(backend.asked).containsExactly("0+" + 2 * PAGE, 2 * PAGE + "+" + 2 * PAGE);
      backend.answer(1, Answer.WHOLE);
      assertThat(ranges.get(1).getData()).as("its first page is in the other run").isNotDone();
      backend.answer(0, Answer.WHOLE);
      for (FileRange r : ranges) {
        assertThat(bytesOf(r)).isEqualTo(expected(r));
      }
    }
  }

  @Test
  void aFailedOrShortRunFailsItsRangesOnlyAndKeepsNoPageOfIt() throws Exception {
    List<FileRange> ranges = ranges(10, 20, 2L * PAGE, PAGE, 5L * PAGE, 7);
    try (FSDataInputStream in = open()) {
      in.readVectored(ranges, ByteBuffer::allocate);
      backend.answer(0, Answer.FAIL);
      backend.answer(1, Answer.SHORT);
      backend.answer(2, Answer.WHOLE);

      assertThat(cause(ranges.get(0))).isInstanceOf(IOException.class).hasMessage("injected");
      assertThat(cause(ranges.get(1)))
          .isInstanceOf(EOFException.class)
          .hasMessageContaining("of " + PAGE + " bytes at " + 2 * PAGE);
      assertThat(bytesOf(ranges.get(2))).isEqualTo(expected(ranges.get(2)));
    }
    cache.store().flush();
    backend.forget();
    try (FSDataInputStream in = open()) {
      List<FileRange> again = ranges(10, 20, 2L * PAGE, PAGE, 5L * PAGE, 7);
      in.readVectored(again, ByteBuffer::allocate);
      assertThat(backend.asked)
          .as("the failed and the short run are asked again; the landed one is cached")
          .containsExactly("0+" + PAGE, 2 * PAGE + "+" + PAGE);
      backend.answer(0, Answer.WHOLE);
      backend.answer(1, Answer.WHOLE);
      for (FileRange r : again) {
        assertThat(bytesOf(r)).isEqualTo(expected(r));
      }
    }
  }

  @Test
  void aRangeOverAPageAnotherReaderIsLoadingWaitsForThatLoadInsteadOfReadingItAgain()
      throws Exception {
    backend.gatePositionedReads();
    try (FSDataInputStream reader = open();
        FSDataInputStream vectored = open()) {
      Future<byte[]> page1 =
          other.submit(
              () -> {
                byte[] b = new byte[PAGE];
                reader.readFully(PAGE, b);
                return b;
              });
      backend.positionedReadEntered.await();
      backend.answerAtOnce = true;
      List<FileRange> across = ranges(PAGE - 10, 20);

      CompletableFuture<Void> read =
          CompletableFuture.runAsync(
              () -> {
                try {
                  vectored.readVectored(across, ByteBuffer::allocate);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      backend.positionedReadGate.countDown();
      read.get();

      assertThat(page1.get()).isEqualTo(Arrays.copyOfRange(data, PAGE, 2 * PAGE));
      assertThat(bytesOf(across.get(0))).isEqualTo(expected(across.get(0)));
      assertThat(backend.asked).as("only page 0 by vectored read").containsExactly("0+" + PAGE);
      assertThat(backend.positioned).as("page 1 read once, by the other reader").isEqualTo(1);
    }
  }

  @Test
  void unbufferLetsTheRangesInFlightLandAndClosesTheBackendStreamAfterThem() throws Exception {
    List<FileRange> ranges = ranges(100, 1000, 3L * PAGE, 10);
    try (FSDataInputStream in = open()) {
      in.readVectored(ranges, ByteBuffer::allocate);
      in.unbuffer();
      assertThat(backend.closes).as("backend stream closed with ranges in flight").isZero();

      backend.answer(0, Answer.WHOLE);
      assertThat(backend.closes).as("closed with one range still in flight").isZero();
      backend.answer(1, Answer.WHOLE);
      for (FileRange r : ranges) {
        assertThat(bytesOf(r)).isEqualTo(expected(r));
      }
      backend.closings.acquire();
      assertThat(backend.closes).as("closed once its last range landed").isEqualTo(1);
      assertThat(backend.closedOn)
          .as("not on the thread that completed the range")
          .isNotSameAs(Thread.currentThread());

      List<FileRange> next = ranges(5L * PAGE, 10);
      in.readVectored(next, ByteBuffer::allocate);
      assertThat(backend.opens).as("the next read opens another backend stream").isEqualTo(2);
      backend.answer(2, Answer.WHOLE);
      assertThat(bytesOf(next.get(0))).isEqualTo(expected(next.get(0)));
    }
    assertThat(backend.closes).isEqualTo(2);
  }

  @Test
  void closingTheStreamFailsTheRangesStillInFlight() throws Exception {
    List<FileRange> ranges = ranges(100, 1000);
    FSDataInputStream in = open();
    in.readVectored(ranges, ByteBuffer::allocate);
    in.close();

    assertThat(backend.closes).isEqualTo(1);
    assertThat(cause(ranges.get(0))).isInstanceOf(IOException.class).hasMessage("stream closed");
  }

  @Test
  void closingAfterUnbufferClosesTheReleasedStreamAtOnce() throws Exception {
    List<FileRange> ranges = ranges(100, 1000);
    FSDataInputStream in = open();
    in.readVectored(ranges, ByteBuffer::allocate);
    in.unbuffer();
    assertThat(backend.closes).isZero();

    in.close();

    assertThat(backend.closes).as("the released stream, closed by close()").isEqualTo(1);
    assertThat(cause(ranges.get(0))).isInstanceOf(IOException.class).hasMessage("stream closed");
  }

  @Test
  void aRunLandingAfterTheCacheClosedStillServesItsRangeAndIsNotKept() throws Exception {
    // a control: page 5, landed and written before the close, is kept
    backend.answerAtOnce = true;
    try (FSDataInputStream in = open()) {
      List<FileRange> kept = ranges(5L * PAGE + 10, 1000);
      in.readVectored(kept, ByteBuffer::allocate);
      assertThat(bytesOf(kept.get(0))).isEqualTo(expected(kept.get(0)));
    }
    cache.store().flush();
    backend.answerAtOnce = false;
    backend.forget();

    List<FileRange> ranges = ranges(100, 1000);
    try (FSDataInputStream in = open()) {
      in.readVectored(ranges, ByteBuffer::allocate);
      cache.close();
      cacheClosed = true;
      backend.answer(0, Answer.WHOLE);

      assertThat(bytesOf(ranges.get(0))).isEqualTo(expected(ranges.get(0)));
      assertThat(cache.store().counters().counters())
          .containsEntry(CacheCounters.WRITES_DROPPED, 1L);
    }
    // a cache opened afresh over the same directories has page 5 and misses page 0
    backend.forget();
    backend.answerAtOnce = true;
    int positionedBefore = backend.positioned;
    try (DtapReadCache again = newCache();
        FSDataInputStream in = again.open(openRequest())) {
      byte[] got = new byte[1000];
      in.readFully(5L * PAGE + 10, got);
      assertThat(got).isEqualTo(Arrays.copyOfRange(data, 5 * PAGE + 10, 5 * PAGE + 1010));
      assertThat(backend.asked.size() + backend.positioned - positionedBefore)
          .as("requests to the backend for the page kept before the close")
          .isZero();

      in.readFully(100, got);
      assertThat(got).isEqualTo(Arrays.copyOfRange(data, 100, 1100));
    }
    assertThat(backend.asked.size() + backend.positioned - positionedBefore)
        .as("requests to the backend for the page the closed cache did not keep")
        .isPositive();
  }

  @Test
  void aMissingPageBeforeCachedOnesIsReadAsAnExactRangeNotThroughTheReadersStream()
      throws Exception {
    backend.answerAtOnce = true;
    try (FSDataInputStream in = open()) {
      List<FileRange> allButPage3 = ranges(0, 3L * PAGE, 4L * PAGE, LENGTH - 4L * PAGE);
      in.readVectored(allButPage3, ByteBuffer::allocate);
      for (FileRange r : allButPage3) {
        assertThat(bytesOf(r)).isEqualTo(expected(r));
      }
    }
    cache.store().flush();
    backend.forget();

    byte[] whole = new byte[LENGTH];
    try (FSDataInputStream in = open()) {
      in.readFully(whole);
    }

    assertThat(whole).isEqualTo(data);
    assertThat(backend.asked).as("page 3, exactly").containsExactly(3 * PAGE + "+" + PAGE);
    assertThat(backend.positioned).as("reads on the reader's backend stream").isZero();
  }

  private static Throwable cause(FileRange r) {
    try {
      r.getData().get();
      throw new AssertionError("range at " + r.getOffset() + " did not fail");
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /** How the fake backend answers a held range. */
  private enum Answer {
    WHOLE,
    SHORT,
    FAIL
  }

  /**
   * A local filesystem whose vectored reads are held until the test answers them, and whose
   * positioned reads can be held at a gate. Thread-safe.
   */
  private static final class HeldFileSystem extends RawLocalFileSystem {
    final List<String> asked = new CopyOnWriteArrayList<>();
    private final List<Runnable> whole = new CopyOnWriteArrayList<>();
    private final List<Runnable> shortAnswers = new CopyOnWriteArrayList<>();
    private final List<FileRange> held = new CopyOnWriteArrayList<>();
    final CountDownLatch positionedReadEntered = new CountDownLatch(1);
    final CountDownLatch positionedReadGate = new CountDownLatch(1);
    private volatile boolean gated;
    volatile boolean answerAtOnce;
    volatile int calls;
    volatile int positioned;
    volatile int opens;
    volatile int closes;
    volatile Thread closedOn;
    final Semaphore closings = new Semaphore(0);

    /** Forgets the ranges asked so far: the next one asked is index 0 again. */
    void forget() {
      asked.clear();
      whole.clear();
      shortAnswers.clear();
      held.clear();
    }

    void gatePositionedReads() {
      gated = true;
    }

    void answer(int index, Answer how) {
      switch (how) {
        case WHOLE:
          whole.get(index).run();
          return;
        case SHORT:
          shortAnswers.get(index).run();
          return;
        default:
          held.get(index).getData().completeExceptionally(new IOException("injected"));
      }
    }

    @Override
    protected CompletableFuture<FSDataInputStream> openFileWithOptions(
        Path file, OpenFileParameters parameters) throws IOException {
      return CompletableFuture.completedFuture(open(file, 4096));
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
      opens++;
      return new FSDataInputStream(new Stream(Files.readAllBytes(pathToFile(f).toPath())));
    }

    private final class Stream extends CapabilityFileSystem.Bare {
      private final List<FileRange> ranges = new CopyOnWriteArrayList<>();

      Stream(byte[] bytes) {
        super(bytes);
      }

      @Override
      public void readVectored(
          List<? extends FileRange> requested, IntFunction<ByteBuffer> allocate) {
        calls++;
        for (FileRange r : requested) {
          ranges.add(r);
          asked.add(r.getOffset() + "+" + r.getLength());
          r.setData(new CompletableFuture<>());
          held.add(r);
          whole.add(() -> r.getData().complete(slice(r, r.getLength(), allocate)));
          shortAnswers.add(() -> r.getData().complete(slice(r, r.getLength() - 1, allocate)));
          if (answerAtOnce) {
            whole.get(whole.size() - 1).run();
          }
        }
      }

      /** As S3A's streams do, closing fails the vectored ranges still in flight. */
      @Override
      public void close() {
        closes++;
        closedOn = Thread.currentThread();
        closings.release();
        for (FileRange r : ranges) {
          r.getData().completeExceptionally(new IOException("stream closed"));
        }
      }

      private ByteBuffer slice(FileRange r, int len, IntFunction<ByteBuffer> allocate) {
        ByteBuffer out = allocate.apply(len);
        out.put(data, (int) r.getOffset(), len);
        out.flip();
        return out;
      }

      @Override
      public int read(long position, byte[] buffer, int offset, int length) throws IOException {
        positioned++;
        if (gated) {
          positionedReadEntered.countDown();
          try {
            positionedReadGate.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException();
          }
        }
        int n = Math.min(length, data.length - (int) position);
        System.arraycopy(data, (int) position, buffer, offset, n);
        return n;
      }
    }
  }
}
