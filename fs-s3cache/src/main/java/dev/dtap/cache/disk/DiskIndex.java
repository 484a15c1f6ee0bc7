package dev.dtap.cache.disk;

import java.util.concurrent.ThreadLocalRandom;

/**
 * What this JVM knows of the pages on disk: key, size, directory and last access, for quota
 * accounting and least-recently-used eviction. Compact by design: open addressing over parallel
 * primitive arrays, 25 bytes a slot, at most half the slots empty after growth, so under 60 bytes
 * of heap per page (a HashMap would spend over 100 on the entry objects alone).
 *
 * <p>Thread-safe: sixteen independently locked segments.
 */
final class DiskIndex {
  private static final int SEGMENTS = 16;
  private final Segment[] segments = new Segment[SEGMENTS];

  /** One clock for every index of the JVM, so a rebuilt index can replace the live one. */
  private static final long EPOCH_SECONDS = System.currentTimeMillis() / 1000;

  DiskIndex() {
    for (int i = 0; i < SEGMENTS; i++) {
      segments[i] = new Segment();
    }
  }

  private Segment segment(long hi, long lo) {
    return segments[(int) ((hi ^ lo) >>> 60) & (SEGMENTS - 1)];
  }

  /**
   * @return the current access clock, in seconds
   */
  int now() {
    return (int) (System.currentTimeMillis() / 1000 - EPOCH_SECONDS);
  }

  /**
   * Records a page.
   *
   * @param key the page
   * @param size its size on disk
   * @param dir its directory index
   * @param access access clock value ({@link #now()}, or older for pages found by a scan)
   * @return the size the entry had before, or -1 if it is new
   */
  int put(PageKey key, int size, int dir, int access) {
    return segment(key.hi(), key.lo()).put(key.hi(), key.lo(), size, (byte) dir, access);
  }

  /** Marks a page used now; false if unknown. */
  boolean touch(PageKey key) {
    return segment(key.hi(), key.lo()).touch(key.hi(), key.lo(), now());
  }

  /**
   * @return whether the page is known
   */
  boolean contains(PageKey key) {
    return segment(key.hi(), key.lo()).find(key.hi(), key.lo()) >= 0;
  }

  /**
   * Forgets a page.
   *
   * @return its size, or -1 if unknown
   */
  int remove(PageKey key) {
    return segment(key.hi(), key.lo()).remove(key.hi(), key.lo());
  }

  /**
   * Picks an eviction victim in a directory: the least recently used of a random sample.
   *
   * @param dir the directory index
   * @return the victim, or null if the directory holds no known page
   */
  PageKey victim(int dir) {
    PageKey best = null;
    int bestAccess = Integer.MAX_VALUE;
    ThreadLocalRandom r = ThreadLocalRandom.current();
    for (int attempt = 0; attempt < 4 && best == null; attempt++) {
      for (int s = 0; s < SEGMENTS; s++) {
        Segment seg = segments[(s + r.nextInt(SEGMENTS)) & (SEGMENTS - 1)];
        synchronized (seg) {
          if (seg.count == 0) {
            continue;
          }
          for (int probe = 0; probe < 8; probe++) {
            int i = r.nextInt(seg.his.length);
            if (seg.occupied(i) && seg.dirs[i] == dir && seg.access[i] < bestAccess) {
              bestAccess = seg.access[i];
              best = new PageKey(seg.his[i], seg.los[i]);
            }
          }
        }
      }
    }
    if (best == null) {
      // sparse table: sampling missed, look at every slot
      for (Segment seg : segments) {
        synchronized (seg) {
          for (int i = 0; i < seg.his.length; i++) {
            if (seg.occupied(i) && seg.dirs[i] == dir && seg.access[i] < bestAccess) {
              bestAccess = seg.access[i];
              best = new PageKey(seg.his[i], seg.los[i]);
            }
          }
        }
      }
    }
    return best;
  }

  /**
   * Takes over the contents of a freshly built index (after a directory scan).
   *
   * @param fresh the new contents; not used afterwards
   */
  void replaceWith(DiskIndex fresh) {
    for (int i = 0; i < SEGMENTS; i++) {
      Segment from = fresh.segments[i];
      Segment to = segments[i];
      synchronized (from) {
        synchronized (to) {
          to.his = from.his;
          to.los = from.los;
          to.sizes = from.sizes;
          to.access = from.access;
          to.dirs = from.dirs;
          to.count = from.count;
        }
      }
    }
  }

  /**
   * @return the number of pages known
   */
  long size() {
    long n = 0;
    for (Segment s : segments) {
      synchronized (s) {
        n += s.count;
      }
    }
    return n;
  }

  /**
   * @return heap bytes held by the index's arrays
   */
  long memoryBytes() {
    long b = 0;
    for (Segment s : segments) {
      synchronized (s) {
        b += s.his.length * 25L + 64;
      }
    }
    return b;
  }

  /** One open-addressing table with linear probing; (0,0) marks an empty slot. */
  private static final class Segment {
    long[] his;
    long[] los;
    int[] sizes;
    int[] access;
    byte[] dirs;
    int count;

    Segment() {
      reset(16);
    }

    void reset(int capacity) {
      his = new long[capacity];
      los = new long[capacity];
      sizes = new int[capacity];
      access = new int[capacity];
      dirs = new byte[capacity];
      count = 0;
    }

    boolean occupied(int i) {
      return his[i] != 0 || los[i] != 0;
    }

    private static long norm(long lo, long hi) {
      return hi == 0 && lo == 0 ? 1 : lo; // keep (0,0) free as the empty marker
    }

    private int slot(long hi, long lo) {
      long h = hi * 0x9e3779b97f4a7c15L ^ lo;
      return (int) (h ^ (h >>> 29)) & (his.length - 1);
    }

    synchronized int find(long hi, long lo) {
      lo = norm(lo, hi);
      int mask = his.length - 1;
      for (int i = slot(hi, lo); ; i = (i + 1) & mask) {
        if (!occupied(i)) {
          return -1;
        }
        if (his[i] == hi && los[i] == lo) {
          return i;
        }
      }
    }

    synchronized int put(long hi, long lo, int size, byte dir, int when) {
      lo = norm(lo, hi);
      if ((count + 1) * 4 > his.length * 3) {
        grow();
      }
      int mask = his.length - 1;
      for (int i = slot(hi, lo); ; i = (i + 1) & mask) {
        if (!occupied(i)) {
          his[i] = hi;
          los[i] = lo;
          sizes[i] = size;
          dirs[i] = dir;
          access[i] = when;
          count++;
          return -1;
        }
        if (his[i] == hi && los[i] == lo) {
          int old = sizes[i];
          sizes[i] = size;
          dirs[i] = dir;
          access[i] = Math.max(access[i], when);
          return old;
        }
      }
    }

    synchronized boolean touch(long hi, long lo, int when) {
      int i = find(hi, lo);
      if (i < 0) {
        return false;
      }
      access[i] = when;
      return true;
    }

    synchronized int remove(long hi, long lo) {
      int i = find(hi, lo);
      if (i < 0) {
        return -1;
      }
      int size = sizes[i];
      int mask = his.length - 1;
      // backward-shift deletion keeps every probe chain unbroken without tombstones
      int hole = i;
      for (int j = (i + 1) & mask; occupied(j); j = (j + 1) & mask) {
        int home = slot(his[j], los[j]);
        boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
        if (movable) {
          his[hole] = his[j];
          los[hole] = los[j];
          sizes[hole] = sizes[j];
          dirs[hole] = dirs[j];
          access[hole] = access[j];
          hole = j;
        }
      }
      his[hole] = 0;
      los[hole] = 0;
      count--;
      return size;
    }

    private void grow() {
      long[] oh = his;
      long[] ol = los;
      int[] os = sizes;
      int[] oa = access;
      byte[] od = dirs;
      reset(oh.length * 2);
      for (int i = 0; i < oh.length; i++) {
        if (oh[i] != 0 || ol[i] != 0) {
          int mask = his.length - 1;
          int j = slot(oh[i], ol[i]);
          while (occupied(j)) {
            j = (j + 1) & mask;
          }
          his[j] = oh[i];
          los[j] = ol[i];
          sizes[j] = os[i];
          access[j] = oa[i];
          dirs[j] = od[i];
          count++;
        }
      }
    }
  }
}
