package dev.dtap.cache;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
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

  private FSDataInputStream demand;
  private long pos;
  private byte[] current;
  private long currentIndex = -1;
  private long nextExpected;
  private int sequentialRun;
  private long prefetchedThrough = -1;
  private long prefetchedFrom = -1;
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
    this.randomHint = policy.startsWith("random") || policy.startsWith("vector") || policy.startsWith("columnar");
    this.sequentialHint = policy.startsWith("sequential") || policy.startsWith("whole-file");
    this.prefetchPages = store.config().prefetchPages();
    this.description = description;
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
    synchronized (this) {
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
    if (sequential || !randomHint || n == pageLen) {
      byte[] page = store.get(key, counters);
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
    // random and cold: only what was asked, now; the page in the background
    counters.miss();
    synchronized (this) {
      if (demand == null) {
        demand = source.open(null);
      }
      BackendSource.readFully(demand, position, buf, off, n);
    }
    counters.backend(n);
    store.loadInBackground(key, backgroundLoader(index), pageLen, false, counters);
    return n;
  }

  private void prefetchAfter(long index) {
    if (prefetchPages == 0) {
      return;
    }
    long last = Math.min((length - 1) / pageSize, index + prefetchPages);
    if (prefetchedFrom < 0) {
      prefetchedFrom = index + 1;
    }
    for (long i = Math.max(index + 1, prefetchedThrough + 1); i <= last; i++) {
      store.loadInBackground(id.page(i), backgroundLoader(i), pageLength(i), true, counters);
    }
    prefetchedThrough = Math.max(prefetchedThrough, last);
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
    synchronized (this) {
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

  /** @return whether a page is cached or loading */
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
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + " " + target + ": " + description);
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
    closeDemand();
  }

  private synchronized void closeDemand() {
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
      unbuffer();
      // pages this stream prefetched and nobody read: wasted work, counted once
      for (long i = Math.max(0, prefetchedFrom); prefetchedFrom >= 0 && i <= prefetchedThrough; i++) {
        store.forgetPrefetched(id.page(i), counters);
      }
    }
  }

  @Override
  public String toString() {
    return "CachingInputStream{" + description + ", pos=" + pos + ", " + counters + "}";
  }
}
