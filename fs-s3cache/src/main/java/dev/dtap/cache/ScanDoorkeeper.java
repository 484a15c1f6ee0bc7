package dev.dtap.cache;

import dev.dtap.cache.disk.PageKey;
import dev.dtap.cache.disk.PrivateFiles;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Remembers which pages lone readers have met, in a fixed 1 MiB bit set (8 million pages' worth): a
 * page met for the first time by a lone scan is streamed through uncached, and cached when met
 * again. One-off scans (an ETL pass over a table) so neither pay the cost of filling the cache nor
 * push out what is re-read. The set is cleared when half full, so old sightings age out. False
 * positives only admit a page early; a lost sighting only admits it one meeting late.
 *
 * <p>The set can live in a file of the cache directory ({@link #open(Path)}), mapped into every JVM
 * of the host that caches there: a job runs its tasks in new JVMs, so a set each JVM kept to itself
 * would forget every sighting when the task ends, and once the cache is full a job run again would
 * never be cached. Through the file, a page one task met is admitted when the next task, of this
 * job or the next, meets it, and sightings outlive restarts as the pages do. Words are updated with
 * atomic operations on the mapping, which other processes see at once; the file holds no data, only
 * hints, so a torn or stale file costs at most a page admitted early or late.
 *
 * <p>The file also records whether the cache had room when a JVM last looked ({@link #recordRoom}),
 * which a new JVM goes by until it has scanned the directories itself.
 *
 * <p>A second, 16 KiB level marks which words hold any bit, so that clearing touches only those:
 * clearing the whole megabyte would push everything else out of the processor's caches, and the
 * read that follows a clear would pay for it.
 *
 * <p>Thread-safe and safe between processes, lock-free.
 */
final class ScanDoorkeeper {
  /** Name of the file in the first cache directory; its layout is versioned by the name. */
  static final String FILE_NAME = "sightings-v1";

  private static final int BITS = 1 << 23;
  private static final int WORDS = BITS / 64;
  private static final int USED_WORDS = WORDS / 64;

  /**
   * Byte offsets: the count of bits set since the last clear, the room last recorded, the used
   * level, the words.
   */
  private static final int COUNT_AT = 0;

  private static final int ROOM_AT = 8;
  private static final long ROOM = 1;
  private static final long FULL = 2;

  private static final int USED_AT = 64;
  private static final int WORDS_AT = USED_AT + USED_WORDS * 8;
  static final int SIZE = WORDS_AT + WORDS * 8;

  private static final VarHandle LONGS =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

  /** Direct or mapped: atomic access needs memory outside the heap. */
  private final ByteBuffer bits;

  private ScanDoorkeeper(ByteBuffer bits) {
    this.bits = bits;
  }

  /**
   * @return a set this JVM keeps to itself (a host tier with no cache directory of its own)
   */
  static ScanDoorkeeper inMemory() {
    return new ScanDoorkeeper(ByteBuffer.allocateDirect(SIZE));
  }

  /**
   * Maps the host's set, creating the file (its owner's only) when missing. Its blocks are written
   * before it is mapped, so that a volume filling up later never leaves the mapping a hole to fault
   * on.
   *
   * @param file the file, in a cache directory
   * @return the set, shared with every JVM mapping the same file
   * @throws IOException if the file cannot be created, sized or mapped
   */
  static ScanDoorkeeper open(Path file) throws IOException {
    try (FileChannel ch = PrivateFiles.openShared(file)) {
      long size = ch.size();
      if (size < SIZE) {
        ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
        for (long at = size; at < SIZE; at += zeros.capacity()) {
          zeros.clear().limit((int) Math.min(zeros.capacity(), SIZE - at));
          while (zeros.hasRemaining()) {
            ch.write(zeros, at + zeros.position());
          }
        }
        ch.force(false);
      }
      ScanDoorkeeper d = new ScanDoorkeeper(ch.map(FileChannel.MapMode.READ_WRITE, 0, SIZE));
      long count = (long) LONGS.getVolatile(d.bits, COUNT_AT);
      if (count < 0 || count > BITS) {
        d.clear(); // not a count this class wrote: start afresh rather than never age out
      }
      return d;
    }
  }

  /**
   * @param key a page key
   * @return true if the page was seen before; otherwise records it and returns false
   */
  boolean seenBefore(PageKey key) {
    int bit = bitOf(key);
    int word = WORDS_AT + (bit >>> 6) * 8;
    long mask = 1L << (bit & 63);
    while (true) {
      long w = (long) LONGS.getVolatile(bits, word);
      if ((w & mask) != 0) {
        return true;
      }
      if (LONGS.compareAndSet(bits, word, w, w | mask)) {
        if (w == 0) {
          markUsed(bit >>> 6);
        }
        long set = (long) LONGS.getAndAdd(bits, COUNT_AT, 1L) + 1;
        if (set > BITS / 2 || set < 0) {
          clear();
        }
        return false;
      }
    }
  }

  /**
   * @return whether the page was seen, without recording it
   */
  boolean contains(PageKey key) {
    int bit = bitOf(key);
    long w = (long) LONGS.getVolatile(bits, WORDS_AT + (bit >>> 6) * 8);
    return (w & (1L << (bit & 63))) != 0;
  }

  /**
   * Records whether the host's cache had room when a JVM last looked (after a scan of its
   * directories or a page written), for JVMs that have not scanned yet.
   *
   * @param room whether the pages fill under 90% of the quota
   */
  void recordRoom(boolean room) {
    long v = room ? ROOM : FULL;
    if ((long) LONGS.getVolatile(bits, ROOM_AT) != v) {
      LONGS.setVolatile(bits, ROOM_AT, v);
    }
  }

  /**
   * @return whether the host's cache was nearly full when a JVM last looked (false when none has)
   */
  boolean hostWasFull() {
    return (long) LONGS.getVolatile(bits, ROOM_AT) == FULL;
  }

  private static int bitOf(PageKey key) {
    long h = key.hi() * 0x9e3779b97f4a7c15L ^ key.lo();
    return (int) ((h ^ (h >>> 31)) & (BITS - 1));
  }

  private void markUsed(int word) {
    int at = USED_AT + (word >>> 6) * 8;
    long bit = 1L << (word & 63);
    long u;
    while (((u = (long) LONGS.getVolatile(bits, at)) & bit) == 0
        && !LONGS.compareAndSet(bits, at, u, u | bit)) {
      // lost a race with another word of the same group: try again
    }
  }

  /**
   * Forgets every sighting. A page recorded while this runs may be kept or forgotten; either only
   * moves its admission by one sighting.
   */
  void clear() {
    LONGS.setVolatile(bits, COUNT_AT, 0L);
    for (int i = 0; i < USED_WORDS; i++) {
      int at = USED_AT + i * 8;
      // take the marks first: a word set after this re-marks itself, so none is left unmarked
      long u = (long) LONGS.getVolatile(bits, at) == 0 ? 0 : (long) LONGS.getAndSet(bits, at, 0L);
      while (u != 0) {
        LONGS.setVolatile(bits, WORDS_AT + ((i << 6) + Long.numberOfTrailingZeros(u)) * 8, 0L);
        u &= u - 1;
      }
    }
  }
}
