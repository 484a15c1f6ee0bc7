package dev.dtap.cache.disk;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * hints, so a torn or stale file costs at most a page admitted early or late. Should the mapping
 * fault (an I/O error of the disk, a volume that cannot allocate a block), the JVM reports it as an
 * {@link InternalError} on the access; this process then keeps a set of its own from there on.
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
public final class ScanDoorkeeper implements Sightings {
  private static final Logger LOG = LoggerFactory.getLogger(ScanDoorkeeper.class);

  /** Name of the file in the first cache directory; its layout is versioned by the name. */
  public static final String FILE_NAME = "sightings-v1";

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
  public static final int SIZE = WORDS_AT + WORDS * 8;

  private static final VarHandle LONGS =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

  /** Threads of this JVM setting the file up: a {@link FileLock} is held per process. */
  private static final Object SETUP = new Object();

  /** Direct or mapped, aligned to 8: atomic access needs memory outside the heap. */
  private volatile ByteBuffer bits;

  private final boolean mapped;
  private boolean detached;

  private ScanDoorkeeper(ByteBuffer bits, boolean mapped) {
    this.bits = bits;
    this.mapped = mapped;
  }

  /**
   * @return a set this JVM keeps to itself (a host tier with no cache directory of its own)
   */
  public static ScanDoorkeeper inMemory() {
    return new ScanDoorkeeper(ownBits(), false);
  }

  private static ByteBuffer ownBits() {
    return ByteBuffer.allocateDirect(SIZE + 8).alignedSlice(8);
  }

  /**
   * Maps the host's set, creating the file (its owner's only) when missing. Its blocks are written
   * before it is mapped, under a lock, so that no process maps a hole, nor zeroes what another
   * already recorded.
   *
   * @param file the file, in a cache directory
   * @return the set, shared with every JVM mapping the same file
   * @throws IOException if the file cannot be created, sized, locked or mapped
   */
  public static ScanDoorkeeper open(Path file) throws IOException {
    synchronized (SETUP) {
      try (FileChannel ch = PrivateFiles.openShared(file);
          FileLock lock = ch.lock()) {
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
        ByteBuffer b = ch.map(FileChannel.MapMode.READ_WRITE, 0, SIZE);
        long count = (long) LONGS.getVolatile(b, COUNT_AT);
        if (count < 0 || count > BITS) {
          // not a file this class wrote: its marks cannot be trusted to find its bits
          for (int at = 0; at < SIZE; at += 8) {
            LONGS.setVolatile(b, at, 0L);
          }
        }
        return new ScanDoorkeeper(b, true);
      }
    }
  }

  /**
   * The host's set in a cache directory, or this JVM's own when the directory cannot hold it (a
   * warning says so; admission then forgets what the JVM met when it ends).
   *
   * @param dir the first cache directory, prepared
   * @return the set
   */
  public static ScanDoorkeeper openOrOwn(Path dir) {
    Path file = dir.resolve(FILE_NAME);
    try {
      return open(file);
    } catch (IOException | RuntimeException | InternalError e) {
      LOG.warn(
          "dtap cache: cannot share admission sightings through {} ({}); this process keeps its own",
          file,
          e.toString());
      return inMemory();
    }
  }

  /** The mapping faulted: from now on this process keeps its own set. */
  private synchronized ByteBuffer lost(InternalError e) {
    if (!mapped) {
      throw e; // memory of our own does not fault: this is the JVM's
    }
    if (!detached) {
      detached = true;
      bits = ownBits();
      LOG.warn(
          "dtap cache: the admission sightings file faulted ({}); this process keeps its own",
          e.toString());
    }
    return bits;
  }

  /**
   * @param key a page key
   * @return true if the page was seen before; otherwise records it and returns false
   */
  @Override
  public boolean seenBefore(PageKey key) {
    try {
      return seenBefore(bits, key);
    } catch (InternalError e) {
      return seenBefore(lost(e), key);
    }
  }

  private static boolean seenBefore(ByteBuffer b, PageKey key) {
    int bit = bitOf(key);
    int word = WORDS_AT + (bit >>> 6) * 8;
    long mask = 1L << (bit & 63);
    while (true) {
      long w = (long) LONGS.getVolatile(b, word);
      if ((w & mask) != 0) {
        return true;
      }
      if (LONGS.compareAndSet(b, word, w, w | mask)) {
        if (w == 0) {
          markUsed(b, bit >>> 6);
        }
        long set = (long) LONGS.getAndAdd(b, COUNT_AT, 1L) + 1;
        if (set > BITS / 2 || set < 0) {
          clear(b);
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
    int at = WORDS_AT + (bit >>> 6) * 8;
    long w;
    try {
      w = (long) LONGS.getVolatile(bits, at);
    } catch (InternalError e) {
      w = (long) LONGS.getVolatile(lost(e), at);
    }
    return (w & (1L << (bit & 63))) != 0;
  }

  /**
   * Records whether the host's cache had room when a JVM last looked (after a scan of its
   * directories or a page written), for JVMs that have not scanned yet.
   *
   * @param room whether the pages fill under 90% of the quota
   */
  public void recordRoom(boolean room) {
    long v = room ? ROOM : FULL;
    try {
      recordRoom(bits, v);
    } catch (InternalError e) {
      recordRoom(lost(e), v);
    }
  }

  private static void recordRoom(ByteBuffer b, long v) {
    if ((long) LONGS.getVolatile(b, ROOM_AT) != v) {
      LONGS.setVolatile(b, ROOM_AT, v);
    }
  }

  /**
   * @return whether the host's cache was nearly full when a JVM last looked (false when none has)
   */
  public boolean hostWasFull() {
    try {
      return (long) LONGS.getVolatile(bits, ROOM_AT) == FULL;
    } catch (InternalError e) {
      return (long) LONGS.getVolatile(lost(e), ROOM_AT) == FULL;
    }
  }

  private static int bitOf(PageKey key) {
    long h = key.hi() * 0x9e3779b97f4a7c15L ^ key.lo();
    return (int) ((h ^ (h >>> 31)) & (BITS - 1));
  }

  private static void markUsed(ByteBuffer b, int word) {
    int at = USED_AT + (word >>> 6) * 8;
    long bit = 1L << (word & 63);
    long u;
    while (((u = (long) LONGS.getVolatile(b, at)) & bit) == 0
        && !LONGS.compareAndSet(b, at, u, u | bit)) {
      // lost a race with another word of the same group: try again
    }
  }

  /**
   * Forgets every sighting. A page recorded while this runs may be kept or forgotten; either only
   * moves its admission by one sighting.
   */
  @Override
  public void clear() {
    try {
      clear(bits);
    } catch (InternalError e) {
      clear(lost(e));
    }
  }

  private static void clear(ByteBuffer b) {
    LONGS.setVolatile(b, COUNT_AT, 0L);
    for (int i = 0; i < USED_WORDS; i++) {
      int at = USED_AT + i * 8;
      // take the marks first: a word set after this re-marks itself, so none is left unmarked
      long u = (long) LONGS.getVolatile(b, at) == 0 ? 0 : (long) LONGS.getAndSet(b, at, 0L);
      while (u != 0) {
        LONGS.setVolatile(b, WORDS_AT + ((i << 6) + Long.numberOfTrailingZeros(u)) * 8, 0L);
        u &= u - 1;
      }
    }
  }
}
