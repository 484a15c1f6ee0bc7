package dev.dtap.cache.disk;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the pages on disk weigh against the quota: the index of known pages, the bytes used per
 * directory, and the pins that keep a page from eviction while a reader holds it (a page handed to
 * another process as an open file).
 *
 * <p>Thread-safe.
 */
final class DiskQuota {
  private final DiskIndex index = new DiskIndex();
  private final long[] quota;
  private final AtomicLongArray used;
  private final ConcurrentHashMap<PageKey, Integer> pins = new ConcurrentHashMap<>();

  DiskQuota(int dirs) {
    this.quota = new long[dirs];
    this.used = new AtomicLongArray(dirs);
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
    int dir = dirOf(key);
    int before = index.put(key, (int) size, dir, index.now());
    used.addAndGet(dir, before < 0 ? size : size - before);
  }

  /** Accounts for a page found on disk that the index did not know (another writer's). */
  void found(PageKey key, long size) {
    int dir = dirOf(key);
    if (!index.contains(key) && index.put(key, (int) size, dir, index.now()) < 0) {
      used.addAndGet(dir, size);
    }
  }

  /** Forgets a page; nothing if it was not known. */
  void removed(PageKey key) {
    int size = index.remove(key);
    if (size > 0) {
      used.addAndGet(dirOf(key), -size);
    }
  }

  boolean contains(PageKey key) {
    return index.contains(key);
  }

  void touch(PageKey key) {
    index.touch(key);
  }

  /**
   * @return whether a directory holds more than its quota
   */
  boolean over(int dir) {
    return used.get(dir) > quota[dir];
  }

  /**
   * @return whether a directory is above the level eviction brings it down to (95% of the quota, so
   *     that not every write evicts)
   */
  boolean aboveTarget(int dir) {
    long limit = quota[dir];
    return used.get(dir) > limit - limit / 20;
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

  /** Takes over a freshly scanned index and its per-directory sizes. */
  void replaceWith(DiskIndex fresh, long[] seen) {
    index.replaceWith(fresh);
    for (int d = 0; d < seen.length; d++) {
      used.set(d, seen[d]);
    }
  }

  /** Forgets every page (after the directories were emptied). */
  void clear() {
    index.clear();
    for (int d = 0; d < quota.length; d++) {
      used.set(d, 0);
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
