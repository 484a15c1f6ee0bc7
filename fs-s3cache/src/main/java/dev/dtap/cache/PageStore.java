package dev.dtap.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM's page store: a memory tier (Caffeine, weighted by bytes, W-TinyLFU so scans do not flush
 * hot pages) over the disk tier, single-flight loading (concurrent misses of one page cause one
 * backend read), asynchronous disk writes, and a shared pool for prefetch and background fills with
 * a byte budget. One store per distinct configuration is shared by every tap of the JVM.
 *
 * <p>Every fault of the disk tier is absorbed here ({@link Faults}): callers see a miss, never an
 * exception from the cache.
 *
 * <p>Thread-safe.
 */
final class PageStore {
  private static final Logger LOG = LoggerFactory.getLogger(PageStore.class);
  private static final Map<String, PageStore> SHARED = new HashMap<>();

  /** Loads a page from the backend. */
  interface Loader {
    byte[] load() throws IOException;
  }

  private final String key;
  private final CacheConfig config;
  private final Faults faults;
  private final CacheCounters counters;
  private final Cache<PageKey, byte[]> memory;
  private final DiskTier disk;
  private final ConcurrentHashMap<PageKey, CompletableFuture<byte[]>> inflight =
      new ConcurrentHashMap<>();

  /** Pages loaded but not yet on disk: readable while their write is queued. */
  private final ConcurrentHashMap<PageKey, byte[]> pendingWrites = new ConcurrentHashMap<>();

  private final ThreadPoolExecutor background;
  private final ThreadPoolExecutor writer;
  private final AtomicLong budgetUsed = new AtomicLong();

  /** Bytes of pages queued for the disk: their own budget, so a slow disk never stops prefetch. */
  private final AtomicLong writesQueued = new AtomicLong();

  private final ScanDoorkeeper doorkeeper = new ScanDoorkeeper();

  /** Open streams per file version, to tell a lone scan from readers sharing a file. */
  private final ConcurrentHashMap<PageKey, AtomicInteger> openStreams = new ConcurrentHashMap<>();

  private final long deadlineNanos;

  /** Times disk operations against the deadline. */
  private final DiskIo io;

  private final Thread rescanner;
  private volatile boolean prepared;
  private int references;

  private PageStore(String key, CacheConfig config, DiskIo io) {
    this.key = key;
    this.config = config;
    this.faults = new Faults(config.bypassTime().toNanos());
    this.counters = new CacheCounters(null, faults);
    this.deadlineNanos = config.deadline().toNanos();
    this.io = io;
    this.memory =
        config.memoryBytes() == 0
            ? null
            : Caffeine.newBuilder()
                .maximumWeight(config.memoryBytes())
                .weigher((PageKey k, byte[] v) -> v.length + 64)
                .build();
    this.disk = new DiskTier(config, counters, io);
    try {
      disk.prepare();
      prepared = true;
    } catch (IOException e) {
      // fail open: memory and backend only until a later scan succeeds
      faults.fault(Faults.classify(e), "preparing the cache directories", e);
    }
    this.background = pool("dtap-cache-fill", config.prefetchThreads());
    this.writer = pool("dtap-cache-write", 1);
    long rescanMs = config.rescan().toMillis();
    this.rescanner =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                scanDisk();
                try {
                  Thread.sleep(rescanMs);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "dtap-cache-scan");
    rescanner.setDaemon(true);
    rescanner.start(); // the first scan rebuilds the index after a restart, in the background
  }

  private static ThreadPoolExecutor pool(String name, int threads) {
    ThreadPoolExecutor p =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true);
              return t;
            });
    p.allowCoreThreadTimeOut(true);
    return p;
  }

  /**
   * The shared store for a configuration.
   *
   * @param config the cache settings
   * @return the store; {@link #release()} it when done
   */
  static PageStore acquire(CacheConfig config) {
    synchronized (SHARED) {
      PageStore s = SHARED.get(config.storeKey());
      if (s == null) {
        s = new PageStore(config.storeKey(), config, DiskIo.NIO);
        SHARED.put(config.storeKey(), s);
      }
      s.references++;
      return s;
    }
  }

  /**
   * A private store over injected file operations, for fault-injection tests.
   *
   * @param config the settings
   * @param io the file operations
   * @return a store used by nobody else; {@link #release()} it
   */
  static PageStore privateStore(CacheConfig config, DiskIo io) {
    PageStore s = new PageStore("private-" + System.nanoTime(), config, io);
    s.references = 1;
    return s;
  }

  /** Releases a reference; the last one stops the store's threads. */
  void release() {
    synchronized (SHARED) {
      if (--references > 0) {
        return;
      }
      SHARED.remove(key);
    }
    rescanner.interrupt();
    background.shutdown();
    writer.shutdown();
    try {
      writer.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    disk.close();
  }

  CacheConfig config() {
    return config;
  }

  CacheCounters counters() {
    return counters;
  }

  /**
   * @return the store-wide counters (evictions, corrupt pages, faults) as IOStatistics
   */
  org.apache.hadoop.fs.statistics.IOStatistics storeStatistics() {
    return counters;
  }

  DiskTier disk() {
    return disk;
  }

  private void scanDisk() {
    long start = System.nanoTime();
    try {
      if (!prepared) {
        disk.prepare();
        prepared = true;
      }
      disk.scan();
    } catch (IOException | UncheckedIOException e) {
      faults.fault(
          Faults.classify(
              e instanceof IOException ? (IOException) e : ((UncheckedIOException) e).getCause()),
          "scanning the cache directories",
          e);
    }
    LOG.debug(
        "dtap cache: index rebuilt in {} ms, {} pages",
        (System.nanoTime() - start) / 1_000_000,
        disk.pages());
  }

  /** A page from memory, the pending-write queue or disk; null on a miss. Never throws. */
  byte[] get(PageKey key, CacheCounters stream) {
    byte[] data = memoryGet(key);
    if (data != null) {
      stream.hitMemory(data.length);
      return data;
    }
    if (!faults.diskUsable()) {
      return null;
    }
    long start = io.nanoTime();
    try {
      data = disk.read(key);
    } catch (IOException e) {
      faults.fault(Faults.classify(e), "reading a cached page", e);
      return null;
    }
    checkDeadline(start, "reading a cached page");
    if (data != null) {
      stream.hitDisk(data.length);
      if (memory != null) {
        memory.put(key, data);
      }
    }
    return data;
  }

  /**
   * Part of a page from memory or disk, without loading the whole page into memory: the random-read
   * path.
   *
   * @return bytes copied, or -1 on a miss. Never throws.
   */
  int read(PageKey key, int offset, byte[] dst, int dstOff, int len, CacheCounters stream) {
    byte[] data = memoryGet(key);
    if (data != null && offset + len <= data.length) {
      System.arraycopy(data, offset, dst, dstOff, len);
      stream.hitMemory(len);
      return len;
    }
    if (!faults.diskUsable()) {
      return -1;
    }
    long start = io.nanoTime();
    int n;
    try {
      n = disk.read(key, offset, dst, dstOff, len);
    } catch (IOException e) {
      faults.fault(Faults.classify(e), "reading a cached page", e);
      return -1;
    }
    checkDeadline(start, "reading a cached page");
    if (n > 0) {
      stream.hitDisk(n);
    }
    return n;
  }

  /** A page if memory or disk has it, uncounted; for background loads. */
  private byte[] peek(PageKey key) {
    byte[] data = memoryGet(key);
    if (data == null && faults.diskUsable()) {
      // the file is the truth: another JVM or an earlier run may have written it
      try {
        data = disk.read(key);
      } catch (IOException e) {
        return null;
      }
    }
    return data;
  }

  private byte[] memoryGet(PageKey key) {
    byte[] data = memory == null ? null : memory.getIfPresent(key);
    return data != null ? data : pendingWrites.get(key);
  }

  private void checkDeadline(long start, String what) {
    if (io.nanoTime() - start > deadlineNanos) {
      faults.fault(Faults.Cause.SLOW_DISK, what, null);
    }
  }

  /**
   * @return whether this JVM holds a page in memory (or queued for the disk)
   */
  boolean inMemory(PageKey key) {
    return memoryGet(key) != null;
  }

  /**
   * Drops a page from memory and disk; call {@link #flush()} first so no queued write re-adds it.
   */
  void forget(PageKey key) {
    if (memory != null) {
      memory.invalidate(key);
    }
    disk.delete(key);
  }

  /**
   * @return whether a page is known to be available without a backend read
   */
  boolean isCachedOrLoading(PageKey key) {
    return inflight.containsKey(key) || memoryGet(key) != null || disk.index().contains(key);
  }

  /**
   * Loads a page once, however many threads miss it at the same time: the first caller runs the
   * loader, the others wait for its result.
   *
   * @param key the page
   * @param loader reads it from the backend
   * @param stream the caller's counters
   * @return the page
   * @throws IOException if the backend read fails (the cache itself never fails a read)
   */
  byte[] load(PageKey key, Loader loader, CacheCounters stream) throws IOException {
    return load(key, loader, stream, false);
  }

  private byte[] load(PageKey key, Loader loader, CacheCounters stream, boolean background)
      throws IOException {
    CompletableFuture<byte[]> mine = new CompletableFuture<>();
    CompletableFuture<byte[]> running = inflight.putIfAbsent(key, mine);
    if (running != null) {
      return background ? null : await(running, key, stream);
    }
    try {
      // it may have landed between the caller's check and now
      byte[] cached = background ? peek(key) : get(key, stream);
      if (cached == null) {
        stream.miss();
        cached = loader.load();
        stream.backend(cached.length);
        put(key, cached);
      }
      mine.complete(cached);
      return cached;
    } catch (IOException | RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      inflight.remove(key, mine);
    }
  }

  private byte[] await(CompletableFuture<byte[]> running, PageKey key, CacheCounters stream)
      throws IOException {
    try {
      byte[] data = running.get();
      stream.hitMemory(data.length);
      return data;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while waiting for a page being loaded");
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException) {
        throw (IOException) c;
      }
      throw new IOException("Loading a page failed: " + c, c);
    }
  }

  /** Stores a freshly loaded page: memory now, disk in the background. */
  void put(PageKey key, byte[] data) {
    if (memory != null) {
      memory.put(key, data);
    }
    if (!faults.diskUsable()) {
      return;
    }
    long size = data.length;
    if (writesQueued.addAndGet(size) > config.prefetchMemory()
        || pendingWrites.putIfAbsent(key, data) != null) {
      writesQueued.addAndGet(-size);
      if (!pendingWrites.containsKey(key)) {
        counters.writeDropped();
      }
      return;
    }
    writer.execute(
        () -> {
          long start = io.nanoTime();
          try {
            if (faults.diskUsable() && prepared) {
              disk.write(key, data, data.length);
              checkDeadline(start, "writing a cached page");
            }
          } catch (IOException e) {
            faults.fault(Faults.classify(e), "writing a cached page", e);
          } finally {
            pendingWrites.remove(key);
            writesQueued.addAndGet(-size);
          }
        });
  }

  /**
   * Loads a page in the background (filling a page a random read took only part of), unless it is
   * cached or loading already or the byte budget is spent.
   *
   * @param key the page
   * @param loader reads it from the backend
   * @param size the page's size, for the budget
   * @param stream the counters of the stream that asked
   */
  void loadInBackground(PageKey key, Loader loader, int size, CacheCounters stream) {
    if (isCachedOrLoading(key)) {
      return;
    }
    if (budgetUsed.addAndGet(size) > config.prefetchMemory()) {
      budgetUsed.addAndGet(-size);
      stream.prefetchSkipped();
      return;
    }
    try {
      background.execute(
          () -> {
            try {
              if (!isCachedOrLoading(key)) {
                load(key, loader, stream, true);
              }
            } catch (IOException | RuntimeException e) {
              LOG.debug("dtap cache: background load failed: {}", e.toString());
            } finally {
              budgetUsed.addAndGet(-size);
            }
          });
    } catch (RuntimeException e) {
      budgetUsed.addAndGet(-size);
    }
  }

  /**
   * @return the stores currently open in this JVM
   */
  static java.util.List<PageStore> openStores() {
    synchronized (SHARED) {
      return new java.util.ArrayList<>(SHARED.values());
    }
  }

  void streamOpened(FileIdentity id) {
    openStreams.computeIfAbsent(id.fileKey(), k -> new AtomicInteger()).incrementAndGet();
  }

  void streamClosed(FileIdentity id) {
    openStreams.computeIfPresent(id.fileKey(), (k, n) -> n.decrementAndGet() <= 0 ? null : n);
  }

  /**
   * @return whether only one stream of this JVM reads this file version now
   */
  boolean isLoneScan(FileIdentity id) {
    AtomicInteger n = openStreams.get(id.fileKey());
    return n == null || n.get() <= 1;
  }

  /**
   * @return whether some reader is loading this page now
   */
  boolean isLoading(PageKey key) {
    return inflight.containsKey(key);
  }

  /**
   * Admission of a page a lone stream meets: true to cache it now. A sequential scan's page is
   * cached at once while the cache has room (or always with {@code first-read}): caching it evicts
   * nothing, and the job run again over the same input, in other JVMs, hits. Otherwise, and for a
   * random read (whose page would cost a whole-page fill for a part of it), only if it was met
   * before; else it is remembered and streamed through, so a one-off scan does not push out what is
   * read again.
   *
   * @param key the page
   * @param random whether the stream reads at random
   */
  boolean admitScannedPage(PageKey key, boolean random) {
    return firstReadAdmits(random) || doorkeeper.seenBefore(key);
  }

  /**
   * @return whether a lone sequential scan would cache this page (room, met before, cached)
   */
  boolean scanWouldCache(PageKey key) {
    return firstReadAdmits(false) || doorkeeper.contains(key) || isCachedOrLoading(key);
  }

  /**
   * @return whether a page is cached on its first read: always with {@code first-read}, never with
   *     {@code second-read}, and with {@code auto} for sequential reads while the tier pages settle
   *     in (the disk, else memory) is under 90% of its quota
   */
  private boolean firstReadAdmits(boolean random) {
    switch (config.scanAdmission()) {
      case FIRST_READ:
        return true;
      case SECOND_READ:
        return false;
      default:
        if (random) {
          return false;
        }
        if (disk != null) {
          long quota = disk.quotaBytes();
          return quota > 0 && disk.usedBytes() < quota / 10 * 9;
        }
        long heap = config.memoryBytes();
        return heap > 0 && memoryBytes() < heap / 10 * 9;
    }
  }

  /** Reserves prefetch budget; false when the JVM's prefetch bytes are spent. */
  boolean reserve(int bytes) {
    if (budgetUsed.addAndGet(bytes) > config.prefetchMemory()) {
      budgetUsed.addAndGet(-bytes);
      return false;
    }
    return true;
  }

  void unreserve(int bytes) {
    budgetUsed.addAndGet(-bytes);
  }

  /** Runs a task on the shared background pool. */
  void background(Runnable task) {
    background.execute(task);
  }

  /** Waits until queued disk writes are done (tests, benchmarks). */
  void flush() throws InterruptedException {
    while (!pendingWrites.isEmpty()
        || writer.getActiveCount() > 0
        || background.getActiveCount() > 0
        || !background.getQueue().isEmpty()) {
      Thread.sleep(5);
    }
  }

  /** Drops every cached page, memory and disk (tests, benchmarks: a cold cache). */
  void clear() throws IOException, InterruptedException {
    flush();
    if (memory != null) {
      memory.invalidateAll();
    }
    doorkeeper.clear();
    disk.clear();
  }

  /**
   * @return bytes held by the memory tier
   */
  long memoryBytes() {
    return memory == null
        ? 0
        : memory.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
  }
}
