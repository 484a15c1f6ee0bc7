package dev.dtap.cache;

import dev.dtap.cache.concurrent.InFlight;
import dev.dtap.cache.disk.CacheDirectory;
import dev.dtap.cache.disk.DiskEvents;
import dev.dtap.cache.disk.DiskIo;
import dev.dtap.cache.disk.DiskTier;
import dev.dtap.cache.disk.HostSightings;
import dev.dtap.cache.disk.PageKey;
import dev.dtap.cache.disk.Sightings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host tier of a JVM that caches on its own: the cache directories, written in the background
 * by one thread, read on the caller's thread, and rescanned periodically to learn what other JVMs
 * of the host wrote or evicted. Every fault of the disk is absorbed ({@link Faults}): the disk is
 * bypassed for a while and reads go to the backend.
 *
 * <p>Thread-safe.
 */
final class LocalHostTier implements HostTier {
  private static final Logger LOG = LoggerFactory.getLogger(LocalHostTier.class);

  private final CacheConfig config;
  private final Faults faults;
  private final CacheCounters storeCounters;
  private final DiskTier disk;
  private final DiskIo io;
  private final long deadlineNanos;
  private final SlowDisk slowDisk;
  private final ThreadPoolExecutor writer;

  /** Pages loaded but not yet on disk: readable while their write is queued. */
  private final ConcurrentHashMap<PageKey, byte[]> pendingWrites = new ConcurrentHashMap<>();

  /** Pages taken for writing and not yet written or dropped. */
  private final InFlight writesInFlight = new InFlight();

  /** Bytes of pages queued for the disk: their own budget, so a slow disk never stops prefetch. */
  private final AtomicLong writesQueued = new AtomicLong();

  private final Thread rescanner;
  private final HostSightings sightings;
  private volatile boolean prepared;

  /** Whether this JVM has scanned the directories, and so knows how full they are. */
  private volatile boolean indexed;

  private final CountDownLatch firstScan = new CountDownLatch(1);

  LocalHostTier(CacheConfig config, Faults faults, CacheCounters storeCounters, DiskIo io) {
    this.config = config;
    this.faults = faults;
    this.storeCounters = storeCounters;
    this.io = io;
    this.deadlineNanos = config.deadline().toNanos();
    this.slowDisk = new SlowDisk(deadlineNanos);
    this.disk =
        new DiskTier(
            config.disk(),
            new DiskEvents() {
              @Override
              public void eviction() {
                storeCounters.eviction();
              }

              @Override
              public void corruptPage() {
                storeCounters.corruptPage();
              }
            },
            io);
    try {
      disk.prepare();
      prepared = true;
    } catch (IOException e) {
      // fail open: memory and backend only until a later scan succeeds
      faults.fault(Faults.classify(e), "preparing the cache directories", e);
    }
    this.sightings =
        prepared && !config.disk().dirs().isEmpty()
            ? HostSightings.open(config.disk().dirs().get(0))
            : HostSightings.processOnly();
    this.writer = BackgroundLoads.pool("dtap-cache-write", 1);
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

  private void scanDisk() {
    long start = System.nanoTime();
    try {
      if (!prepared) {
        disk.prepare();
        prepared = true;
      }
      disk.scan();
      indexed = true;
      firstScan.countDown();
      sightings.recordRoom(disk.hasRoom());
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

  DiskTier disk() {
    return disk;
  }

  /**
   * Waits for this JVM's first scan of the directories (tests: a JVM that knows how full the cache
   * is).
   *
   * @return false if it did not complete in time
   */
  boolean awaitIndexed(long timeout, TimeUnit unit) throws InterruptedException {
    return firstScan.await(timeout, unit);
  }

  @Override
  public byte[] read(PageKey key, CacheCounters stream) {
    byte[] data = pendingWrites.get(key);
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
    }
    return data;
  }

  @Override
  public int read(PageKey key, int offset, byte[] dst, int dstOff, int len, CacheCounters stream) {
    byte[] data = pendingWrites.get(key);
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

  private void checkDeadline(long start, String what) {
    long end = io.nanoTime();
    if (slowDisk.confirms(start, end)) {
      faults.fault(Faults.Cause.SLOW_DISK, what, null);
    } else if (end - start > deadlineNanos) {
      LOG.debug(
          "dtap cache: {} took {} ms, over the deadline; a fault once another operation is slow",
          what,
          (end - start) / 1_000_000);
    }
  }

  @Override
  public byte[] load(
      PageKey key, String owner, PageStore.Loader loader, boolean keep, CacheCounters stream)
      throws IOException {
    byte[] data = read(key, stream);
    if (data != null) {
      return data;
    }
    stream.miss();
    data = loader.load();
    stream.backend(data.length);
    if (keep) {
      keep(key, data);
    }
    return data;
  }

  @Override
  public void keep(PageKey key, byte[] data) {
    if (!faults.diskUsable()) {
      return;
    }
    long size = data.length;
    // counted before it is visible in pendingWrites, so a flush that sees the page waits for it
    writesInFlight.enter();
    if (writesQueued.addAndGet(size) > config.writeMemory()
        || pendingWrites.putIfAbsent(key, data) != null) {
      writesQueued.addAndGet(-size);
      writesInFlight.exit();
      if (!pendingWrites.containsKey(key)) {
        storeCounters.writeDropped();
      }
      return;
    }
    try {
      writer.execute(
          () -> {
            long start = io.nanoTime();
            try {
              if (faults.diskUsable() && prepared) {
                if (!disk.write(key, data, data.length)) {
                  storeCounters.writeDropped(); // pages in use fill the quota
                }
                checkDeadline(start, "writing a cached page");
                boolean room = disk.hasRoom();
                if (indexed || !room) {
                  // before its scan, this JVM counts only its own pages: it can tell full, not room
                  sightings.recordRoom(room);
                }
              }
            } catch (IOException e) {
              faults.fault(Faults.classify(e), "writing a cached page", e);
            } finally {
              written(key, size);
            }
          });
    } catch (RejectedExecutionException e) {
      // closed while a reader was still landing pages: its read stands, the page is not kept
      written(key, size);
      storeCounters.writeDropped();
    } catch (Error e) {
      // no thread could be started for the write: it never runs, so a flush must not wait for it
      written(key, size);
      throw e;
    }
  }

  private void written(PageKey key, long size) {
    pendingWrites.remove(key);
    writesQueued.addAndGet(-size);
    writesInFlight.exit();
  }

  /**
   * Asks the disk, not only this JVM's index: the directories are the host's, and the index knows
   * another JVM's pages only from its last scan. A missing page taken for one before a page nobody
   * cached is read through the reader's backend stream, whose own read-ahead (S3A's analytics
   * stream reads on to the split's end) fetched tens of megabytes of cached pages again.
   */
  @Override
  public boolean contains(PageKey key) {
    if (pendingWrites.containsKey(key)) {
      return true;
    }
    // while the disk is bypassed its pages cannot be read: none is available, none is touched
    return faults.diskUsable() && disk.onDisk(key);
  }

  @Override
  public long sizeOnHost(PageKey key) throws IOException {
    try {
      return Files.size(disk.pathOf(key));
    } catch (NoSuchFileException e) {
      return -1;
    }
  }

  @Override
  public void forget(PageKey key) {
    disk.delete(key);
  }

  @Override
  public Sightings sightings() {
    return sightings;
  }

  /**
   * Until this JVM's first scan of the directories, it knows only the pages it wrote itself, so it
   * goes by what the host last recorded: a new task JVM on a full cache would otherwise take its
   * first reads for room and let a one-off scan push out what is re-read.
   */
  @Override
  public boolean hasRoom() {
    return disk.hasRoom() && (indexed || !sightings.hostWasFull());
  }

  @Override
  public List<CacheDirectory> directories() {
    List<CacheDirectory> result = new ArrayList<>();
    for (Path dir : config.disk().dirs()) {
      result.add(CacheDirectory.inspect(config.disk(), dir));
    }
    return result;
  }

  @Override
  public void flush() throws InterruptedException {
    writesInFlight.awaitIdle();
  }

  @Override
  public void clear() throws IOException, InterruptedException {
    flush();
    disk.clear();
    sightings.recordRoom(disk.hasRoom());
  }

  @Override
  public void close() {
    rescanner.interrupt();
    writer.shutdown();
    try {
      writer.awaitTermination(CLOSE_DRAIN_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    disk.close();
    sightings.close();
  }
}
