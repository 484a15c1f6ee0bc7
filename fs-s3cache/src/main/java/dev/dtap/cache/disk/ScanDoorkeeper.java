package dev.dtap.cache.disk;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Remembers which pages lone readers of this process have met, in a fixed 1 MiB bit set (8 million
 * pages' worth): a page met for the first time by a lone scan is streamed through uncached, and
 * cached when met again. One-off scans (an ETL pass over a table) so neither pay the cost of
 * filling the cache nor push out what is re-read. The set is cleared when half full, so old
 * sightings age out. False positives only admit a page early.
 *
 * <p>A second, 16 KiB level marks which words hold any bit, so that clearing touches only those:
 * clearing the whole megabyte would push everything else out of the processor's caches, and the
 * read that follows a clear would pay for it.
 *
 * <p>Thread-safe, lock-free.
 */
public final class ScanDoorkeeper implements Sightings {
  /**
   * Bits of the set: 1 MiB, ample for a few million pages met between clears. Also the size of the
   * host's file of sightings ({@link HostSightings}): a change is a new file name.
   */
  static final int BITS = 1 << 23;

  private final AtomicLongArray words = new AtomicLongArray(BITS / 64);

  /** Bit i set when word i may be non-zero; never clear while word i is non-zero. */
  private final AtomicLongArray used = new AtomicLongArray(BITS / 64 / 64);

  private final LongAdder set = new LongAdder();

  /**
   * @param key a page key
   * @return true if the page was seen before; otherwise records it and returns false
   */
  @Override
  public boolean seenBefore(PageKey key) {
    int bit = bitOf(key);
    int word = bit >>> 6;
    long mask = 1L << (bit & 63);
    while (true) {
      long w = words.get(word);
      if ((w & mask) != 0) {
        return true;
      }
      if (words.compareAndSet(word, w, w | mask)) {
        if (w == 0) {
          markUsed(word);
        }
        set.increment();
        if (set.sum() > BITS / 2) {
          clear();
        }
        return false;
      }
    }
  }

  /**
   * @return whether the page was seen, without recording it
   */
  @Override
  public boolean contains(PageKey key) {
    int bit = bitOf(key);
    return (words.get(bit >>> 6) & (1L << (bit & 63))) != 0;
  }

  /** A page's bit, in this set and in the host's file of sightings alike. */
  static int bitOf(PageKey key) {
    long h = key.hi() * 0x9e3779b97f4a7c15L ^ key.lo();
    return (int) ((h ^ (h >>> 31)) & (BITS - 1));
  }

  private void markUsed(int word) {
    int i = word >>> 6;
    long bit = 1L << (word & 63);
    long u;
    while (((u = used.get(i)) & bit) == 0 && !used.compareAndSet(i, u, u | bit)) {
      // lost a race with another word of the same group: try again
    }
  }

  /**
   * Forgets every sighting. A page recorded while this runs may be kept or forgotten; either only
   * moves its admission by one sighting.
   */
  @Override
  public void clear() {
    for (int i = 0; i < used.length(); i++) {
      // take the marks first: a word set after this re-marks itself, so none is left unmarked
      long u = used.get(i) == 0 ? 0 : used.getAndSet(i, 0);
      while (u != 0) {
        words.set((i << 6) + Long.numberOfTrailingZeros(u), 0);
        u &= u - 1;
      }
    }
    set.reset();
  }
}
