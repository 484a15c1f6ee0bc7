package dev.dtap.cache;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * Reads one version of one file through the page cache.
 *
 * <p>Pages come from memory, then disk, then the backend (one load per page however many readers
 * miss it). Reads that follow each other are sequential: whole pages are loaded and the next ones
 * prefetched in the background. When the caller declared random access ({@code openFile()} read
 * policy {@code random}, {@code vector} or {@code columnar}) and a read wants only part of an
 * uncached page, exactly the requested bytes are read from the backend and the page is filled in
 * the background, so a cold random read costs what it costs without the cache.
 *
 * <p>Not thread-safe except for the positioned reads, like every Hadoop input stream.
 */
final class CachingInputStream extends FSInputStream
    implements ByteBufferReadable,
        ByteBufferPositionedReadable,
        CanUnbuffer,
        StreamCapabilities,
        IOStatisticsSource {
  private final PageStore store;
  private final FileIdentity id;
  private final BackendSource source;
  private final CacheCounters counters;
  private final int pageSize;
  private final long length;
  private final boolean randomHint;
  private final boolean sequentialHint;
  private final int prefetchPages;
  private final String description;

  /** Guards {@link #demand}: the reader and this stream's readahead task share it. */
  private final Object demandLock = new Object();

  private FSDataInputStream demand;
  private long pos;
  private byte[] current;
  private long currentIndex = -1;

  /** The page this stream is streaming through uncached (scan resistance), or -1. */
  private long passIndex = -1;

  private long nextExpected;
  private int sequentialRun;

  /** Pages read ahead on this stream's backend stream, by index; consumed or counted wasted. */
  private final java.util.concurrent.ConcurrentHashMap<
          Long, java.util.concurrent.CompletableFuture<byte[]>>
      readahead = new java.util.concurrent.ConcurrentHashMap<>();

  private final ConcurrentLinkedQueue<Long> readaheadQueue = new ConcurrentLinkedQueue<>();

  /** The futures of queued pages, kept here too: the reader may take one from the map early. */
  private final java.util.concurrent.ConcurrentHashMap<
          Long, java.util.concurrent.CompletableFuture<byte[]>>
      readaheadPending = new java.util.concurrent.ConcurrentHashMap<>();

  private final AtomicBoolean readaheadRunning = new AtomicBoolean();
  private long prefetchedThrough = -1;
  private volatile boolean closed;

  CachingInputStream(
      PageStore store,
      FileIdentity id,
      BackendSource source,
      CacheCounters tapCounters,
      String readPolicy,
      String description) {
    this.store = store;
    this.id = id;
    this.source = source;
    this.counters = new CacheCounters(tapCounters, null);
    this.pageSize = store.config().pageSize();
    this.length = id.length();
    String policy = readPolicy == null ? "" : readPolicy.toLowerCase(Locale.ROOT);
    this.randomHint =
        policy.startsWith("random") || policy.startsWith("vector") || policy.startsWith("columnar");
    this.sequentialHint = policy.startsWith("sequential") || policy.startsWith("whole-file");
    this.prefetchPages = store.config().prefetchPages();
    this.description = description;
    store.streamOpened(id);
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + description);
    }
  }

  private int pageLength(long index) {
    return (int) Math.min(pageSize, length - index * pageSize);
  }

  /** Reads a whole page from the backend on the caller's stream. */
  private byte[] loadPage(long index) throws IOException {
    byte[] page = new byte[pageLength(index)];
    synchronized (demandLock) {
      if (demand == null) {
        demand = source.open(null);
      }
      BackendSource.readFully(demand, index * pageSize, page, 0, page.length);
    }
    return page;
  }

  private PageStore.Loader backgroundLoader(long index) {
    long offset = index * pageSize;
    int len = pageLength(index);
    return () -> source.readRange(offset, len);
  }

  /**
   * Copies bytes of one page: the heart of every read.
   *
   * @param position file position, below the length
   * @param sequential whether the reader is reading sequentially
   * @return bytes copied, at least one
   */
  private int readFromPage(long position, byte[] buf, int off, int len, boolean sequential)
      throws IOException {
    long index = position / pageSize;
    int inPage = (int) (position - index * pageSize);
    int pageLen = pageLength(index);
    int n = Math.min(len, pageLen - inPage);
    if (index == currentIndex) {
      System.arraycopy(current, inPage, buf, off, n);
      counters.hitMemory(n);
      return n;
    }
    PageKey key = id.page(index);
    java.util.concurrent.CompletableFuture<byte[]> ahead = readahead.remove(index);
    if (ahead != null) {
      byte[] page = awaitReadahead(ahead);
      if (page != null) {
        counters.prefetchUsed();
        System.arraycopy(page, inPage, buf, off, n);
        current = page;
        currentIndex = index;
        if (sequential) {
          prefetchAfter(index);
        }
        return n;
      }
    }
    if (index == passIndex) {
      return passThrough(position, buf, off, n);
    }
    if (sequential || !randomHint || n == pageLen) {
      byte[] page = store.get(key, counters);
      if (page == null && firstTouch(key, !sequential && randomHint)) {
        passIndex = sequential ? index : -1;
        counters.miss();
        return passThrough(position, buf, off, n);
      }
      if (page == null) {
        page = store.load(key, () -> loadPage(index), counters);
      }
      System.arraycopy(page, inPage, buf, off, n);
      if (sequential) {
        current = page;
        currentIndex = index;
        prefetchAfter(index);
      }
      return n;
    }
    if (store.read(key, inPage, buf, off, n, counters) == n) {
      return n;
    }
    if (firstTouch(key, true)) {
      counters.miss();
      return passThrough(position, buf, off, firstTouchSpan(index, n, len));
    }
    // random, cold and met before: only what was asked, now; the page in the background
    counters.miss();
    passThrough(position, buf, off, n);
    store.loadInBackground(key, backgroundLoader(index), pageLen, counters);
    return n;
  }

  /**
   * Reads the next pages ahead, in order, on this stream's own backend stream: one sequential
   * backend read feeds the reader while it works on the current page, as a local disk's readahead
   * does. Bounded by the prefetch page count per stream and the JVM's prefetch byte budget.
   */
  /**
   * Admission: a page this JVM's only reader of the file meets for the first time streams straight
   * through and is only remembered; it is cached when met again. One-off scans so cost nothing
   * extra and push nothing useful out, while what is read again (a table scanned daily, a footer
   * every query reads) is cached. Pages of a file several streams read at once are cached at once,
   * so that they load once for all of them.
   */
  private boolean firstTouch(PageKey key, boolean random) {
    return store.isLoneScan(id) && !store.isLoading(key) && !store.admitScannedPage(key, random);
  }

  /**
   * How far a random read that streams through may go in one backend request: on through the
   * following pages it spans while they too are neither cached nor met before, so that a read
   * crossing a page boundary costs one ranged read, not two.
   *
   * @param index the first page, met for the first time
   * @param n the bytes wanted from it
   * @param len the bytes the caller wants in all
   */
  private int firstTouchSpan(long index, int n, int len) {
    int span = n;
    for (long next = index + 1; span < len && next * pageSize < length; next++) {
      PageKey key = id.page(next);
      if (store.isCachedOrLoading(key) || !firstTouch(key, true)) {
        break;
      }
      counters.miss();
      span += Math.min(len - span, pageLength(next));
    }
    return span;
  }

  /** Reads bytes of a page that is not cached straight from the backend stream. */
  private int passThrough(long position, byte[] buf, int off, int n) throws IOException {
    synchronized (demandLock) {
      if (demand == null) {
        demand = source.open(null);
      }
      BackendSource.readFully(demand, position, buf, off, n);
    }
    counters.backend(n);
    return n;
  }

  private void prefetchAfter(long index) {
    if (prefetchPages == 0) {
      return;
    }
    long last = Math.min((length - 1) / pageSize, index + prefetchPages);
    boolean lone = store.isLoneScan(id);
    for (long i = Math.max(index + 1, prefetchedThrough + 1); i <= last; i++) {
      if (lone && !store.scanWouldCache(id.page(i))) {
        break; // a first pass streams through; reading ahead would cache it
      }
      if (!store.reserve(pageLength(i))) {
        counters.prefetchSkipped();
        break;
      }
      java.util.concurrent.CompletableFuture<byte[]> f =
          new java.util.concurrent.CompletableFuture<>();
      readahead.put(i, f);
      readaheadPending.put(i, f);
      readaheadQueue.add(i);
      prefetchedThrough = i;
    }
    if (!readaheadQueue.isEmpty() && readaheadRunning.compareAndSet(false, true)) {
      store.background(this::runReadahead);
    }
  }

  private void runReadahead() {
    try {
      Long i;
      while (!closed && (i = readaheadQueue.poll()) != null) {
        long index = i;
        java.util.concurrent.CompletableFuture<byte[]> f = readaheadPending.remove(index);
        try {
          byte[] page = store.load(id.page(index), () -> loadPage(index), counters);
          if (f != null) {
            f.complete(page);
          }
        } catch (IOException | RuntimeException e) {
          if (f != null) {
            f.completeExceptionally(e);
          }
        } catch (Error e) {
          // the reader waiting for this page must not wait forever (an OutOfMemoryError here
          // hung 32 readers of a load test); it reads the page itself, and the error goes on
          if (f != null) {
            f.completeExceptionally(e);
          }
          throw e;
        } finally {
          store.unreserve(pageLength(index));
        }
      }
    } finally {
      readaheadRunning.set(false);
      if (!closed && !readaheadQueue.isEmpty() && readaheadRunning.compareAndSet(false, true)) {
        store.background(this::runReadahead);
      }
    }
  }

  /** The page read ahead, or null if it failed (the caller then reads it itself). */
  private static byte[] awaitReadahead(java.util.concurrent.CompletableFuture<byte[]> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (java.util.concurrent.ExecutionException e) {
      return null;
    }
  }

  private boolean noteAccess(long position) {
    if (position == nextExpected) {
      sequentialRun++;
    } else {
      sequentialRun = 0;
    }
    return sequentialHint || sequentialRun >= 1;
  }

  @Override
  public synchronized int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] buf, int off, int len) throws IOException {
    checkOpen();
    java.util.Objects.checkFromIndexSize(off, len, buf.length);
    if (len == 0) {
      return 0;
    }
    if (pos >= length) {
      return -1;
    }
    boolean sequential = noteAccess(pos);
    int total = 0;
    while (total < len && pos < length) {
      int n = readFromPage(pos, buf, off + total, len - total, sequential);
      pos += n;
      total += n;
    }
    nextExpected = pos;
    return total;
  }

  @Override
  public int read(long position, byte[] buf, int off, int len) throws IOException {
    checkOpen();
    validatePositionedReadArgs(position, buf, off, len);
    if (len == 0) {
      return 0;
    }
    // Hadoop's check lets a negative offset through when the length fits; the streams underneath
    // refuse it with IndexOutOfBoundsException before reading, and so must the cache
    java.util.Objects.checkFromIndexSize(off, len, buf.length);
    if (position >= length) {
      return -1;
    }
    int total = 0;
    long p = position;
    while (total < len && p < length) {
      int n = readFromPage(p, buf, off + total, len - total, sequentialHint);
      p += n;
      total += n;
    }
    return total;
  }

  @Override
  public void readFully(long position, byte[] buf, int off, int len) throws IOException {
    validatePositionedReadArgs(position, buf, off, len);
    if (len > 0) {
      java.util.Objects.checkFromIndexSize(off, len, buf.length);
    }
    int done = 0;
    while (done < len) {
      int n = read(position + done, buf, off + done, len - done);
      if (n < 0) {
        throw new EOFException(FSExceptionMessages.EOF_IN_READ_FULLY + ": " + description);
      }
      done += n;
    }
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (!dst.hasRemaining()) {
      return 0;
    }
    byte[] tmp = dst.hasArray() ? null : new byte[dst.remaining()];
    int n =
        tmp == null
            ? read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining())
            : read(tmp, 0, tmp.length);
    if (n > 0) {
      if (tmp == null) {
        dst.position(dst.position() + n);
      } else {
        dst.put(tmp, 0, n);
      }
    }
    return n;
  }

  @Override
  public int read(long position, ByteBuffer dst) throws IOException {
    if (!dst.hasRemaining()) {
      return 0;
    }
    byte[] tmp = new byte[dst.remaining()];
    int n = read(position, tmp, 0, tmp.length);
    if (n > 0) {
      dst.put(tmp, 0, n);
    }
    return n;
  }

  @Override
  public void readFully(long position, ByteBuffer dst) throws IOException {
    byte[] tmp = new byte[dst.remaining()];
    readFully(position, tmp, 0, tmp.length);
    dst.put(tmp);
  }

  @Override
  public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate)
      throws IOException {
    checkOpen();
    new VectoredRead(this, ranges, allocate, length, pageSize).run();
  }

  /** Serves a vectored range entirely from cached pages; false if any page is missing. */
  boolean readCached(long position, byte[] buf, int len) {
    int done = 0;
    while (done < len) {
      long p = position + done;
      long index = p / pageSize;
      int inPage = (int) (p - index * pageSize);
      int n = Math.min(len - done, pageLength(index) - inPage);
      if (store.read(id.page(index), inPage, buf, done, n, counters) != n) {
        return false;
      }
      done += n;
    }
    return true;
  }

  /** Loads the pages {@code first..last} with one backend read and stores them. */
  void loadPages(long first, long last) throws IOException {
    long offset = first * pageSize;
    long end = Math.min(length, (last + 1) * pageSize);
    byte[] span = new byte[(int) (end - offset)];
    counters.miss();
    synchronized (demandLock) {
      if (demand == null) {
        demand = source.open(null);
      }
      BackendSource.readFully(demand, offset, span, 0, span.length);
    }
    counters.backend(span.length);
    for (long i = first; i <= last; i++) {
      int from = (int) ((i - first) * pageSize);
      byte[] page = new byte[pageLength(i)];
      System.arraycopy(span, from, page, 0, page.length);
      store.put(id.page(i), page);
    }
  }

  /**
   * @return whether a page is cached or loading
   */
  boolean pageAvailable(long index) {
    return store.isCachedOrLoading(id.page(index));
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + " " + target + ": " + description);
    }
    if (target > length) {
      throw new EOFException(
          FSExceptionMessages.CANNOT_SEEK_PAST_EOF + " " + target + ": " + description);
    }
    pos = target;
  }

  @Override
  public synchronized long getPos() throws IOException {
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return (int) Math.min(Integer.MAX_VALUE, length - pos);
  }

  @Override
  public synchronized void unbuffer() {
    current = null;
    currentIndex = -1;
    passIndex = -1;
    closeDemand();
  }

  private void closeDemand() {
    synchronized (demandLock) {
      closeDemandLocked();
    }
  }

  private void closeDemandLocked() {
    if (demand != null) {
      try {
        demand.close();
      } catch (IOException e) {
        // a read stream; nothing to lose
      }
      demand = null;
    }
  }

  @Override
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(Locale.ROOT)) {
      case StreamCapabilities.UNBUFFER:
      case StreamCapabilities.READBYTEBUFFER:
      case StreamCapabilities.PREADBYTEBUFFER:
      case StreamCapabilities.IOSTATISTICS:
      case "in:readvectored":
        return true;
      default:
        return false;
    }
  }

  @Override
  public IOStatistics getIOStatistics() {
    return counters;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      store.streamClosed(id);
      // pages read ahead and never consumed: wasted work
      for (java.util.concurrent.CompletableFuture<byte[]> f : readahead.values()) {
        f.cancel(false);
        counters.prefetchWasted();
      }
      readahead.clear();
      readaheadQueue.clear();
      for (java.util.concurrent.CompletableFuture<byte[]> f : readaheadPending.values()) {
        f.cancel(false);
      }
      readaheadPending.clear();
      unbuffer();
    }
  }

  @Override
  public String toString() {
    return "CachingInputStream{" + description + ", pos=" + pos + ", " + counters + "}";
  }
}
