package dev.dtap.cache;

import dev.dtap.cache.disk.PageKey;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * Reads one version of one file through the page cache.
 *
 * <p>Pages come from memory, then the host (disk or cache service), then the backend (one load per
 * page however many readers miss it). Reads that follow each other are sequential: whole pages are
 * loaded and the next ones read ahead ({@link Readahead}). When the caller declared random access
 * ({@code openFile()} read policy {@code random}, {@code vector}, {@code parquet} and the others of
 * {@link ReadPolicy#RANDOM}, first in the caller's list) and a read wants only part of an uncached
 * page, exactly the requested bytes are read from the backend and the page is filled in the
 * background, so a cold random read costs what it costs without the cache. Admission ({@link
 * Admission}) decides which pages are cached.
 *
 * <p>Not thread-safe except for the positioned reads, like every Hadoop input stream: those may run
 * on several threads at once and beside the stream's reads, and never move the stream's state.
 */
final class CachingInputStream extends PageReads
    implements CanUnbuffer, StreamCapabilities, IOStatisticsSource {
  private final PageStore store;
  private final Admission admission;
  private final FileIdentity id;
  private final CacheCounters counters;
  private final DemandStream demand;
  private final PageMisses misses;
  private final PageFetch fetch;
  private final Readahead readahead;
  private final boolean randomHint;
  private final boolean sequentialHint;
  private final int prefetchPages;
  private final String description;

  /**
   * The smallest sequential read served straight from the host's page file when the memory tier
   * takes no pages from the host; a smaller one loads the whole page and serves the next reads from
   * it, one file read for many calls.
   */
  static final int DIRECT_READ_MIN = 128 << 10;

  private long pos;

  /**
   * Whether the stream's last read was large enough to be served straight from the host: its read
   * ahead then skips the pages the host holds.
   */
  private boolean directReads;

  /**
   * The page a sequential reader is in. Index and bytes travel as one object: a positioned read on
   * another thread must never pair one page's index with another page's bytes.
   */
  private volatile HeldPage current = HeldPage.NONE;

  /** The page this stream is streaming through uncached (scan resistance), or -1. */
  private volatile long passIndex = -1;

  private long nextExpected;
  private int sequentialRun;
  private volatile boolean closed;

  CachingInputStream(
      PageStore store,
      FileIdentity id,
      BackendSource source,
      CacheCounters tapCounters,
      String readPolicy,
      PageOwners owners,
      String description) {
    super(store.config().pageSize(), id.length());
    this.store = store;
    this.admission = store.admission();
    this.id = id;
    this.demand = new DemandStream(source, store.background()::execute, this::closedError);
    this.counters = new CacheCounters(tapCounters, null);
    this.misses = new PageMisses(store, id, source, demand, counters, owners);
    ReadPolicy policy = ReadPolicy.parse(readPolicy);
    this.randomHint = policy == ReadPolicy.RANDOM;
    this.sequentialHint = policy == ReadPolicy.SEQUENTIAL;
    this.prefetchPages = store.config().prefetchPages();
    this.description = description;
    this.fetch = new PageFetch(store, id, demand, counters, description);
    this.readahead = new Readahead(store.background(), misses::loadAhead, counters);
    admission.streamOpened(id);
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw closedError();
    }
  }

  /** The error of a read the stream or its cache can no longer serve because it was closed. */
  IOException closedError() {
    return new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + description);
  }

  @Override
  int readFromPage(long position, byte[] buf, int off, int len, boolean sequential)
      throws IOException {
    return copy(position, buf, off, len, sequential, false);
  }

  @Override
  int readFromPageAt(long position, byte[] buf, int off, int len) throws IOException {
    return copy(position, buf, off, len, false, true);
  }

  /**
   * @param positioned a positioned read: it uses what the stream holds but moves none of it, so
   *     that it may run beside the stream's reads and other positioned reads
   */
  private int copy(
      long position, byte[] buf, int off, int len, boolean sequential, boolean positioned)
      throws IOException {
    long index = position / pageSize;
    int inPage = (int) (position - index * pageSize);
    int pageLen = pageLength(index);
    int n = Math.min(len, pageLen - inPage);
    HeldPage held = current;
    if (index == held.index) {
      System.arraycopy(held.bytes, inPage, buf, off, n);
      counters.hitMemory(n);
      return n;
    }
    PageKey key = id.page(index);
    byte[] ahead = positioned ? readahead.peek(index) : readahead.take(index);
    if (ahead != null) {
      return usePage(ahead, index, inPage, buf, off, n, sequential);
    }
    boolean scan = sequential && !positioned;
    boolean large = sequential && n >= Math.min(DIRECT_READ_MIN, pageLen);
    if (!positioned) {
      directReads = large;
    }
    if (large && !store.promotesFromHost() && !store.inMemory(key) && store.isCached(key)) {
      // the memory tier would not take the page: copy the wanted bytes from the host's file
      // straight into the caller's buffer, as a read of a local file does, not through a page
      // allocated, filled and copied again
      if (store.read(key, inPage, buf, off, n, counters) == n) {
        prefetchAfter(index);
        return n;
      }
    }
    if (index == passIndex) {
      return misses.passThrough(position, buf, off, n, scan);
    }
    if (sequential || !randomHint || n == pageLen) {
      byte[] page = store.get(key, counters);
      if (page == null && misses.firstTouch(key, !sequential && randomHint)) {
        counters.miss();
        if (scan && store.host().shared()) {
          // held for the scan's next reads, not kept
          return usePage(misses.uncachedPage(index), index, inPage, buf, off, n, true);
        }
        if (!positioned) {
          passIndex = sequential ? index : -1;
        }
        return misses.passThrough(position, buf, off, n, scan);
      }
      if (page == null) {
        page = sequential ? misses.loadAhead(index) : misses.loadThroughStore(index, false);
      }
      return usePage(page, index, inPage, buf, off, n, sequential);
    }
    if (store.read(key, inPage, buf, off, n, counters) == n) {
      return n;
    }
    if (misses.firstTouch(key, true)) {
      counters.miss();
      return misses.passThrough(position, buf, off, misses.firstTouchSpan(index, n, len), false);
    }
    // random, cold and met before: only what was asked, now; the page in the background
    counters.miss();
    misses.passThrough(position, buf, off, n, false);
    misses.fillInBackground(index);
    return n;
  }

  private int usePage(
      byte[] page, long index, int inPage, byte[] buf, int off, int n, boolean sequential) {
    System.arraycopy(page, inPage, buf, off, n);
    if (sequential) {
      current = new HeldPage(index, page);
      prefetchAfter(index);
    }
    return n;
  }

  private void prefetchAfter(long index) {
    if (prefetchPages == 0) {
      return;
    }
    long last = Math.min((length - 1) / pageSize, index + prefetchPages);
    boolean lone = admission.isLoneScan(id);
    boolean direct = directReads && !store.promotesFromHost();
    for (long i = Math.max(index + 1, readahead.queuedThrough() + 1); i <= last; i++) {
      PageKey key = id.page(i);
      if (direct && store.isCached(key)) {
        continue; // read straight from the host when the reader gets there
      }
      if (lone && !admission.scanWouldCache(key) && !store.isCachedOrLoading(key)) {
        break; // a first pass streams through; reading ahead would cache it
      }
      if (!readahead.queue(i, pageLength(i))) {
        break;
      }
    }
    readahead.start();
  }

  @Override
  boolean sequentialRead(long position) {
    if (position == nextExpected) {
      sequentialRun++;
    } else {
      sequentialRun = 0;
    }
    return sequentialHint || sequentialRun >= 1;
  }

  @Override
  public synchronized int read(byte[] buf, int off, int len) throws IOException {
    checkOpen();
    Objects.checkFromIndexSize(off, len, buf.length);
    if (len == 0) {
      return 0;
    }
    if (pos >= length) {
      return -1;
    }
    boolean sequential = sequentialRead(pos);
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
  void checkReadable() throws IOException {
    checkOpen();
  }

  @Override
  String description() {
    return description;
  }

  @Override
  public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate)
      throws IOException {
    checkOpen();
    new VectoredRead(this, fetch, ranges, allocate, length, pageSize).run();
  }

  /** Serves a vectored range entirely from cached pages; false if any page is missing. */
  boolean readCached(long position, byte[] buf, int off, int len) {
    int done = 0;
    while (done < len) {
      long p = position + done;
      long index = p / pageSize;
      int inPage = (int) (p - index * pageSize);
      int n = Math.min(len - done, pageLength(index) - inPage);
      if (store.read(id.page(index), inPage, buf, off + done, n, counters) != n) {
        return false;
      }
      done += n;
    }
    return true;
  }

  /**
   * A whole page: cached, waited for while another reader loads it, or loaded now. Thread-safe,
   * unlike the stream's own reads.
   *
   * @throws IOException if the backend read fails
   */
  byte[] page(long index) throws IOException {
    byte[] page = store.get(id.page(index), counters);
    return page != null ? page : misses.loadThroughStore(index, false);
  }

  /** Runs work that may wait for another reader's load, off the thread that calls it. */
  void runInBackground(Runnable task) {
    store.background().execute(task);
  }

  /**
   * @return whether a page is cached or loading
   */
  boolean pageAvailable(long index) {
    return store.isCachedOrLoading(id.page(index));
  }

  /**
   * Admission of a page a vectored read would land, as of a sequential read's: false when this lone
   * reader should let it stream through uncached (the meeting is remembered).
   */
  boolean admitsLanding(long index) {
    return !misses.firstTouch(id.page(index), false);
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
    dropBuffers();
    demand.release();
  }

  private void dropBuffers() {
    current = HeldPage.NONE;
    passIndex = -1;
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
      admission.streamClosed(id);
      readahead.close();
      dropBuffers();
      demand.close();
    }
  }

  @Override
  public String toString() {
    return "CachingInputStream{" + description + ", pos=" + pos + ", " + counters + "}";
  }
}
