package dev.dtap.cache.disk;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

/**
 * What the pages on disk weigh against the quota: the index of known pages, the bytes used per
 * directory, and the pins that keep a page from eviction while a reader holds it (a page handed to
 * another process as an open file).
 *
 * <p>A scan of the directories runs beside reads and writes. What changes while it runs is
 * remembered and laid over the scan's result when it is taken over, so that a page written or
 * deleted behind the scanner is neither forgotten (the directory would grow past its quota) nor
 * counted twice.
 *
 * <p>Thread-safe.
 */
final class DiskQuota {
  private final DiskIndex index = new DiskIndex();
  private final long[] quota;
  private final AtomicLongArray used;

  /** Bytes of pages being written, per directory: counted against the quota before they land. */
  private final AtomicLongArray reserved;

  /** Making room in a directory is one step at a time, so two writers never take one gap. */
  private final Object[] roomLocks;

  private final ConcurrentHashMap<PageKey, Integer> pins = new ConcurrentHashMap<>();

  /** Changes take the read side, so they run together; taking over a scan takes the write side. */
  private final ReadWriteLock scanLock = new ReentrantReadWriteLock();

  /** Scans begun and not yet taken over or abandoned; guarded by the write side. */
  private int scans;

  private volatile boolean scanning;
  private final Map<PageKey, Long> writtenInScan = new ConcurrentHashMap<>();
  private final Set<PageKey> removedInScan = ConcurrentHashMap.newKeySet();

  DiskQuota(int dirs) {
    this.quota = new long[dirs];
    this.used = new AtomicLongArray(dirs);
    this.reserved = new AtomicLongArray(dirs);
    this.roomLocks = new Object[dirs];
    for (int i = 0; i < dirs; i++) {
      roomLocks[i] = new Object();
    }
  }

  int dirs() {
    return quota.length;
  }

  int dirOf(PageKey key) {
    return (int) Long.remainderUnsigned(key.lo(), quota.length);
  }

  void setQuota(int dir, long bytes) {
    quota[dir] = bytes;
  }

  /** Accounts for a page just written (or rewritten). */
  void written(PageKey key, long size) {
    scanLock.readLock().lock();
    try {
      int dir = dirOf(key);
      int before = index.put(key, (int) size, dir, index.now());
      used.addAndGet(dir, before < 0 ? size : size - before);
      noteWritten(key, size);
    } finally {
      scanLock.readLock().unlock();
    }
  }

  /** Accounts for a page found on disk that the index did not know (another writer's). */
  void found(PageKey key, long size) {
    scanLock.readLock().lock();
    try {
      int dir = dirOf(key);
      if (!index.contains(key) && index.put(key, (int) size, dir, index.now()) < 0) {
        used.addAndGet(dir, size);
        noteWritten(key, size);
      }
    } finally {
      scanLock.readLock().unlock();
    }
  }

  /** Forgets a page; nothing if it was not known. */
  void removed(PageKey key) {
    scanLock.readLock().lock();
    try {
      int size = index.remove(key);
      if (size > 0) {
        used.addAndGet(dirOf(key), -size);
      }
      if (scanning) {
        writtenInScan.remove(key);
        removedInScan.add(key);
      }
    } finally {
      scanLock.readLock().unlock();
    }
  }

  private void noteWritten(PageKey key, long size) {
    if (scanning) {
      removedInScan.remove(key);
      writtenInScan.put(key, size);
    }
  }

  boolean contains(PageKey key) {
    return index.contains(key);
  }

  void touch(PageKey key) {
    index.touch(key);
  }

  /**
   * Makes room for a page about to be written and holds it until {@link #release}. The pages in the
   * directory, the pages being written to it and this one must fit the quota: when they would not,
   * unpinned pages are evicted, least recently used first, down to 95% of it. Pinned pages (held by
   * readers) and pages being written count and are never evicted, so the quota holds however many
   * readers hold pages; when they leave no room the page is not written.
   *
   * @param dir the page's directory
   * @param size the page file's size
   * @param evict deletes a victim, accounting for it through {@link #removed}
   * @return whether the room is held; false when the page must not be written
   */
  boolean reserve(int dir, long size, Consumer<PageKey> evict) {
    synchronized (roomLocks[dir]) {
      if (!fits(dir, size, quota[dir])) {
        evictDownTo(dir, size, evict);
        if (!fits(dir, size, quota[dir])) {
          return false;
        }
      }
      reserved.addAndGet(dir, size);
      return true;
    }
  }

  /**
   * Evicts unpinned pages from a directory that holds more than its quota (pages found by a scan),
   * down to 95% of it.
   *
   * @param dir the directory
   * @param evict deletes a victim, accounting for it through {@link #removed}
   */
  void trim(int dir, Consumer<PageKey> evict) {
    synchronized (roomLocks[dir]) {
      if (!fits(dir, 0, quota[dir])) {
        evictDownTo(dir, 0, evict);
      }
    }
  }

  private boolean fits(int dir, long size, long limit) {
    return used.get(dir) + reserved.get(dir) + size <= limit;
  }

  /** Evicts until the pages fit 95% of the quota, so that not every write evicts. */
  private void evictDownTo(int dir, long size, Consumer<PageKey> evict) {
    long target = quota[dir] - quota[dir] / 20;
    while (!fits(dir, size, target)) {
      PageKey victim = victim(dir);
      if (victim == null) {
        return;
      }
      evict.accept(victim);
    }
  }

  /** Gives back room {@link #reserve} held, once the page was accounted as written (or not). */
  void release(int dir, long size) {
    reserved.addAndGet(dir, -size);
  }

  /**
   * The next page to evict from a directory: the least recently used of a sample, never a pinned
   * one (a pinned page met is marked used, so the next sample passes it by).
   *
   * @return the victim, or null when the directory holds no page that may go
   */
  PageKey victim(int dir) {
    for (int attempt = 0; attempt < 16; attempt++) {
      PageKey k = index.victim(dir);
      if (k == null || !pinned(k)) {
        return k;
      }
      index.touch(k);
    }
    return null;
  }

  void pin(PageKey key) {
    // one atomic step per change: a count taken to 0 by an unpin is never incremented after its
    // removal
    pins.merge(key, 1, Integer::sum);
  }

  void unpin(PageKey key) {
    pins.computeIfPresent(key, (k, n) -> n <= 1 ? null : n - 1);
  }

  boolean pinned(PageKey key) {
    return pins.containsKey(key);
  }

  /** Starts remembering changes, before a scan lists the directories. */
  void scanBegins() {
    scanLock.writeLock().lock();
    try {
      if (scans++ == 0) {
        writtenInScan.clear();
        removedInScan.clear();
        scanning = true;
      }
    } finally {
      scanLock.writeLock().unlock();
    }
  }

  /**
   * Takes over a freshly scanned index and its per-directory sizes, with the changes made since its
   * scan began laid over them.
   *
   * @param fresh the scan's index; not used afterwards
   * @param seen bytes per directory the scan found; changed
   */
  void replaceWith(DiskIndex fresh, long[] seen) {
    scanLock.writeLock().lock();
    try {
      for (Map.Entry<PageKey, Long> e : writtenInScan.entrySet()) {
        PageKey key = e.getKey();
        // written after the scanner passed its directory, or rewritten after it was listed
        int dir = dirOf(key);
        long size = e.getValue();
        int before = fresh.put(key, (int) size, dir, fresh.now());
        seen[dir] += before < 0 ? size : size - before;
      }
      for (PageKey key : removedInScan) {
        int size = fresh.remove(key); // deleted after the scanner listed it
        if (size > 0) {
          seen[dirOf(key)] -= size;
        }
      }
      index.replaceWith(fresh);
      for (int d = 0; d < seen.length; d++) {
        used.set(d, seen[d]);
      }
    } finally {
      try {
        scanEnded();
      } finally {
        scanLock.writeLock().unlock();
      }
    }
  }

  /** Ends a scan that failed before its result was taken over. */
  void scanAbandoned() {
    scanLock.writeLock().lock();
    try {
      scanEnded();
    } finally {
      scanLock.writeLock().unlock();
    }
  }

  private void scanEnded() {
    if (--scans == 0) {
      scanning = false;
      writtenInScan.clear();
      removedInScan.clear();
    }
  }

  long usedBytes() {
    long sum = 0;
    for (int d = 0; d < quota.length; d++) {
      sum += used.get(d);
    }
    return sum;
  }

  long quotaBytes() {
    long sum = 0;
    for (long q : quota) {
      sum += q;
    }
    return sum;
  }

  long pages() {
    return index.size();
  }

  int now() {
    return index.now();
  }
}
