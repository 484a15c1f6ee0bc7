package dev.dtap.cache;

import dev.dtap.cache.disk.DiskIo;
import dev.dtap.cache.disk.PageKey;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM's page store: the memory tier over the host tier (this JVM's cache directories, or the
 * host's cache service), single-flight loading (concurrent misses of one page in this JVM cause one
 * load), admission, and the shared background pool for prefetch and fills. One store per distinct
 * configuration is shared by every tap of the JVM: it is a host resource, like the directories.
 *
 * <p>Every fault of the cache itself is absorbed by the tiers: callers see a miss, never an
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
  private final CacheCounters counters;
  private final MemoryTier memory;
  private final HostTier host;
  private final Admission admission;
  private final BackgroundLoads background;
  private final ConcurrentHashMap<PageKey, CompletableFuture<byte[]>> inflight =
      new ConcurrentHashMap<>();
  private int references;

  private PageStore(String key, CacheConfig config, CacheCounters counters, HostTier host) {
    this.key = key;
    this.config = config;
    this.counters = counters;
    this.memory = new MemoryTier(config.memoryBytes());
    this.host = host;
    this.admission = new Admission(config.scanAdmission(), host::hasRoom, host.sightings());
    this.background = new BackgroundLoads(config.prefetchThreads(), config.prefetchMemory());
  }

  private static PageStore create(String key, CacheConfig config, DiskIo io) throws IOException {
    Faults faults = new Faults(config.bypassTime().toNanos());
    CacheCounters counters = new CacheCounters(null, faults);
    HostTier host =
        config.cnode() != null
            ? CnodeHostTier.connect(config, counters)
            : new LocalHostTier(config, faults, counters, io);
    return new PageStore(key, config, counters, host);
  }

  /**
   * The shared store for a configuration.
   *
   * @param config the cache settings
   * @return the store; {@link #release()} it when done
   * @throws IOException if the store cannot be set up (a cache service's settings)
   */
  static PageStore acquire(CacheConfig config) throws IOException {
    synchronized (SHARED) {
      PageStore s = SHARED.get(config.storeKey());
      if (s == null) {
        s = create(config.storeKey(), config, DiskIo.NIO);
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
  static PageStore privateStore(CacheConfig config, DiskIo io) throws IOException {
    PageStore s = create("private-" + System.nanoTime(), config, io);
    s.references = 1;
    return s;
  }

  /**
   * Releases a reference; the last one stops the store's threads, waiting up to {@link
   * HostTier#CLOSE_DRAIN_SECONDS} for background loads and as long again for the host tier's
   * writes.
   */
  void release() {
    synchronized (SHARED) {
      if (--references > 0) {
        return;
      }
      SHARED.remove(key, this);
    }
    if (!background.close(TimeUnit.SECONDS.toNanos(HostTier.CLOSE_DRAIN_SECONDS))) {
      LOG.info(
          "dtap cache: background loads still running {} s after close are left to end",
          HostTier.CLOSE_DRAIN_SECONDS);
    }
    host.close();
  }

  /**
   * @return the stores currently open in this JVM
   */
  static List<PageStore> openStores() {
    synchronized (SHARED) {
      return new ArrayList<>(SHARED.values());
    }
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
  IOStatistics storeStatistics() {
    return counters;
  }

  HostTier host() {
    return host;
  }

  Admission admission() {
    return admission;
  }

  BackgroundLoads background() {
    return background;
  }

  /** A page from memory or the host; null on a miss. Never throws. */
  byte[] get(PageKey key, CacheCounters stream) {
    byte[] data = memory.get(key);
    if (data != null) {
      stream.hitMemory(data.length);
      return data;
    }
    data = host.read(key, stream);
    if (data != null && promotesFromHost()) {
      memory.put(key, data);
    }
    return data;
  }

  /**
   * Part of a page from memory or the host, without loading the whole page into memory: the
   * random-read path.
   *
   * @return bytes copied, or -1 on a miss. Never throws.
   */
  int read(PageKey key, int offset, byte[] dst, int dstOff, int len, CacheCounters stream) {
    byte[] data = memory.get(key);
    if (data != null && offset + len <= data.length) {
      System.arraycopy(data, offset, dst, dstOff, len);
      stream.hitMemory(len);
      return len;
    }
    return host.read(key, offset, dst, dstOff, len, stream);
  }

  /**
   * Whether a page read whole from the host should also go into the memory tier: only while the
   * tier has room. A full tier would mostly turn such a page away (its admission favours pages used
   * more often, and a scan's pages are used once a pass), after the reader paid for a page
   * allocated in the heap and copied twice; pages the backend sent still compete for its room.
   *
   * @return false when the memory tier is off or full
   */
  boolean promotesFromHost() {
    return memory.hasRoom();
  }

  /**
   * @return whether this JVM holds a page in memory
   */
  boolean inMemory(PageKey key) {
    return memory.contains(key);
  }

  /**
   * Drops a page from memory and the host; call {@link #flush()} first so no queued write re-adds
   * it.
   *
   * @throws IOException if the host cannot be asked
   */
  void forget(PageKey key) throws IOException {
    memory.invalidate(key);
    host.forget(key);
  }

  /**
   * @return whether a page is known to be available without a backend read
   */
  boolean isCachedOrLoading(PageKey key) {
    // a look, not a use: probing ahead must not keep pages in the memory tier
    return inflight.containsKey(key) || memory.contains(key) || host.contains(key);
  }

  /**
   * @return whether a page is in memory or on the host now (not merely being loaded)
   */
  boolean isCached(PageKey key) {
    return memory.contains(key) || host.contains(key);
  }

  /**
   * @return whether some reader of this JVM is loading this page now
   */
  boolean isLoading(PageKey key) {
    return inflight.containsKey(key);
  }

  /**
   * Loads a page once, however many threads miss it at the same time: the first caller loads it
   * through the host tier (the host's copy, else the backend's), the others wait for its result.
   *
   * @param key the page
   * @param owner the host owning the page's block, or null
   * @param loader reads it from the backend
   * @param stream the caller's counters
   * @return the page
   * @throws IOException if the backend read fails (the cache itself never fails a read)
   */
  byte[] load(PageKey key, String owner, Loader loader, CacheCounters stream) throws IOException {
    return load(key, owner, loader, stream, false, false);
  }

  /**
   * Loads a page for a stream scanning its file alone: as {@link #load(PageKey, String, Loader,
   * CacheCounters)}, but a page the backend sends goes to the host only, not into the memory tier.
   * A one-off scan's pages are read once; held in the heap too, they pushed out what is re-read
   * and, promoted and dropped by the hundred, cost a cold scan a quarter of its time in collections
   * (docs/benchmarks.md, 2026-12-07).
   */
  byte[] loadForScan(PageKey key, String owner, Loader loader, CacheCounters stream)
      throws IOException {
    return load(key, owner, loader, stream, false, true);
  }

  private byte[] load(
      PageKey key,
      String owner,
      Loader loader,
      CacheCounters stream,
      boolean background,
      boolean scan)
      throws IOException {
    CompletableFuture<byte[]> mine = new CompletableFuture<>();
    CompletableFuture<byte[]> running = inflight.putIfAbsent(key, mine);
    if (running != null) {
      return background ? null : await(running, stream);
    }
    try {
      // it may have landed in memory between the caller's check and now
      byte[] cached = memory.get(key);
      if (cached != null) {
        if (!background) {
          stream.hitMemory(cached.length);
        }
      } else {
        boolean[] fetched = {false};
        Loader fetch =
            () -> {
              fetched[0] = true;
              return loader.load();
            };
        cached = host.load(key, owner, fetch, true, stream);
        if (fetched[0] ? !scan : promotesFromHost()) {
          memory.put(key, cached);
        }
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

  private static byte[] await(CompletableFuture<byte[]> running, CacheCounters stream)
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

  /**
   * Stores a page a column read loaded for itself (a vectored read's run): on the host only, in the
   * background. Such a page is read once per query; held in memory too, a scan larger than the
   * memory tier only churns it, and in a task JVM's heap that garbage tripled a cold Spark scan's
   * collection pauses (docs/benchmarks.md). Reads of it before the host has written it are served
   * from the write queue.
   */
  void keepOnHost(PageKey key, byte[] data) {
    host.keep(key, data);
  }

  /**
   * Loads a page in the background (filling a page a random read took only part of), unless it is
   * cached or loading already or the byte budget is spent.
   *
   * @param key the page
   * @param owner the host owning the page's block, or null
   * @param loader reads it from the backend
   * @param size the page's size, for the budget
   * @param stream the counters of the stream that asked
   */
  void loadInBackground(PageKey key, String owner, Loader loader, int size, CacheCounters stream) {
    if (isCachedOrLoading(key)) {
      return;
    }
    if (!background.reserve(size)) {
      stream.prefetchSkipped();
      return;
    }
    background.executeReserved(
        size,
        () -> {
          try {
            if (!isCachedOrLoading(key)) {
              load(key, owner, loader, stream, true, false);
            }
          } catch (IOException | RuntimeException e) {
            // the class only: a backend's message names its bucket or server, and this store is
            // the JVM's, shared by taps, so no tap's rewriting applies; the reader that needs the
            // page meets the failure itself, rewritten
            LOG.debug("dtap cache: a background page load failed ({})", e.getClass().getName());
          }
        });
  }

  /** Waits until queued loads and host writes are done (tests, benchmarks). */
  void flush() throws InterruptedException {
    background.awaitIdle();
    host.flush();
  }

  /** Drops every cached page, memory and host (tests and benchmarks: a cold cache). */
  void clear() throws IOException, InterruptedException {
    flush();
    memory.clear();
    admission.clear();
    host.clear();
  }

  /**
   * @return bytes held by the memory tier
   */
  long memoryBytes() {
    return memory.bytes();
  }
}
