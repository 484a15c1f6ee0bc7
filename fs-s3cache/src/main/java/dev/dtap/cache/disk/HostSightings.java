package dev.dtap.cache.disk;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pages lone readers of the host have met, in a file of the first cache directory that every
 * process caching there reads and writes: a job runs its tasks in new JVMs, so sightings each JVM
 * kept to itself would be forgotten when the task ends, and once the cache is full a job run again
 * would never be cached. Through the file, a page one task met is admitted when the next task, of
 * this job or the next, meets it, and sightings outlive restarts as the pages do.
 *
 * <p>The file is a 1 MiB bit set (8 million pages' worth) cleared when half full, a count of the
 * bits set, and whether the cache had room when a process last looked ({@link #recordRoom}), which
 * a new JVM goes by until it has scanned the directories itself. It is read with positional reads
 * on a read-only channel and written through a channel opened for each write, so no process holds
 * the cache volume open for writing (it can be remounted read-only, as a failing disk is). Updates
 * are not atomic between processes: the file holds hints only, and a lost or torn update admits a
 * page one meeting late or early. What this process met or read is also kept in memory ({@link
 * ScanDoorkeeper}), which answers alone when the file cannot be used (a warning says so once).
 *
 * <p>Thread-safe.
 */
public final class HostSightings implements Sightings, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(HostSightings.class);

  /** Name of the file in the first cache directory; its layout is versioned by the name. */
  public static final String FILE_NAME = "sightings-v2";

  private static final int BITS = ScanDoorkeeper.BITS;
  private static final int COUNT_AT = 0;
  private static final int ROOM_AT = 8;
  private static final int BITS_AT = 64;

  /** Size of the file. */
  public static final int SIZE = BITS_AT + BITS / 8;

  private static final byte ROOM = 1;
  private static final byte FULL = 2;

  private static final long LOCK_WAIT_NANOS = 2_000_000_000L;

  /** Threads of this JVM setting the file up: a {@link FileLock} is held per process. */
  private static final Object SETUP = new Object();

  private final Path file;

  /** Replaced when a reader's interrupt closed it (FileChannel closes on interrupts). */
  private volatile FileChannel reader;

  private volatile boolean closed;
  private final ScanDoorkeeper own = new ScanDoorkeeper();
  private final AtomicBoolean warned = new AtomicBoolean();
  private volatile byte ownRoom;

  private HostSightings(Path file, FileChannel reader) {
    this.file = file;
    this.reader = reader;
  }

  /**
   * @return sightings of this process alone (a cache whose directories cannot be prepared)
   */
  public static HostSightings processOnly() {
    return new HostSightings(null, null);
  }

  /**
   * The host's sightings in a cache directory, creating the file (its owner's only) when missing;
   * this process's alone when the file cannot be used (a warning says so).
   *
   * @param dir the first cache directory, prepared
   * @return the sightings; {@link #close()} them when done
   */
  public static HostSightings open(Path dir) {
    Path file = dir.resolve(FILE_NAME);
    try {
      prepare(file);
      return new HostSightings(file, FileChannel.open(file, StandardOpenOption.READ));
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "dtap cache: cannot share admission sightings through {} ({}); this process keeps"
              + " its own",
          file,
          e.toString());
      return processOnly();
    }
  }

  /** Sizes the file under a lock, so that no process zeroes what another has recorded. */
  private static void prepare(Path file) throws IOException {
    synchronized (SETUP) {
      try (FileChannel ch = PrivateFiles.openShared(file);
          FileLock lock = lock(ch, file)) {
        long size = ch.size();
        if (size >= SIZE) {
          ByteBuffer count = ByteBuffer.allocate(8);
          readFully(ch, count, COUNT_AT);
          long n = count.flip().getLong();
          if (n >= 0 && n <= BITS) {
            return;
          }
          size = 0; // not a count this class wrote: its bits cannot be trusted either
        }
        writeZeros(ch, size, SIZE);
        ch.force(false);
      }
    }
  }

  /**
   * Takes the file's lock, waiting a bounded time: a process stopped while it holds the lock must
   * not hang every other's start.
   */
  private static FileLock lock(FileChannel ch, Path file) throws IOException {
    long deadline = System.nanoTime() + LOCK_WAIT_NANOS;
    while (true) {
      FileLock lock = ch.tryLock();
      if (lock != null) {
        return lock;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IOException("another process holds the lock of " + file);
      }
      LockSupport.parkNanos(10_000_000L);
    }
  }

  private static void writeZeros(FileChannel ch, long from, long to) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
    for (long at = from; at < to; at += zeros.capacity()) {
      zeros.clear().limit((int) Math.min(zeros.capacity(), to - at));
      while (zeros.hasRemaining()) {
        ch.write(zeros, at + zeros.position());
      }
    }
  }

  private static void readFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
    while (b.hasRemaining()) {
      if (ch.read(b, at + b.position()) < 0) {
        throw new IOException("the sightings file is shorter than " + SIZE + " bytes");
      }
    }
  }

  private int readByte(long at) throws IOException {
    FileChannel ch = reader;
    ByteBuffer b = ByteBuffer.allocate(1);
    try {
      readFully(ch, b, at);
    } catch (ClosedChannelException e) {
      reopen(ch); // for the other readers: this one, interrupted, goes by its own sightings
      throw e;
    }
    return b.get(0) & 0xff;
  }

  private synchronized void reopen(FileChannel failed) {
    if (closed || reader != failed) {
      return;
    }
    try {
      reader = FileChannel.open(file, StandardOpenOption.READ);
    } catch (IOException e) {
      failed(e);
    }
  }

  /**
   * Whether the file may be used now: not by a thread whose interrupt flag is set, since any
   * channel it touched would close, for every other thread too.
   */
  private boolean usable() {
    return reader != null && !closed && !Thread.currentThread().isInterrupted();
  }

  @Override
  public boolean seenBefore(PageKey key) {
    if (own.contains(key)) {
      return true;
    }
    if (!usable()) {
      return own.seenBefore(key);
    }
    int bit = ScanDoorkeeper.bitOf(key);
    long at = BITS_AT + (bit >>> 3);
    int mask = 1 << (bit & 7);
    int b;
    try {
      b = readByte(at);
    } catch (IOException e) {
      failed(e);
      return own.seenBefore(key);
    }
    boolean seenHere = own.seenBefore(key);
    if ((b & mask) != 0) {
      return true;
    }
    try {
      record(at, b | mask);
    } catch (IOException e) {
      failed(e);
    }
    return seenHere;
  }

  /** Sets a bit in the file and counts it; clears the set once half of it is set. */
  private void record(long at, int value) throws IOException {
    try (FileChannel w =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      w.write(ByteBuffer.wrap(new byte[] {(byte) value}), at);
      ByteBuffer count = ByteBuffer.allocate(8);
      readFully(w, count, COUNT_AT);
      long n = count.flip().getLong() + 1;
      if (n > BITS / 2 || n < 0) {
        writeZeros(w, BITS_AT, SIZE);
        n = 0;
      }
      w.write(ByteBuffer.allocate(8).putLong(0, n), COUNT_AT);
    }
  }

  @Override
  public boolean contains(PageKey key) {
    if (own.contains(key) || !usable()) {
      return own.contains(key);
    }
    int bit = ScanDoorkeeper.bitOf(key);
    try {
      return (readByte(BITS_AT + (bit >>> 3)) & (1 << (bit & 7))) != 0;
    } catch (IOException e) {
      failed(e);
      return false;
    }
  }

  /** Forgets every sighting, this process's and the host's. */
  @Override
  public void clear() {
    own.clear();
    if (!usable()) {
      return;
    }
    try (FileChannel w =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      writeZeros(w, COUNT_AT, ROOM_AT);
      zeroSetBlocks(w);
    } catch (IOException e) {
      failed(e);
    }
  }

  /**
   * Zeroes the blocks of the bit set that hold a set bit, and only those: rewriting the whole
   * megabyte dirtied it for the disk to write back each time, and a benchmark that empties the
   * cache before every read (a cold read is a millisecond) had that writeback share its cores.
   */
  private static void zeroSetBlocks(FileChannel w) throws IOException {
    ByteBuffer block = ByteBuffer.allocate(64 * 1024);
    for (long at = BITS_AT; at < SIZE; at += block.capacity()) {
      block.clear().limit((int) Math.min(block.capacity(), SIZE - at));
      readFully(w, block, at);
      byte[] bits = block.array();
      for (int i = 0; i < block.limit(); i++) {
        if (bits[i] != 0) {
          writeZeros(w, at, at + block.limit());
          break;
        }
      }
    }
  }

  /**
   * Records whether the host's cache had room when this process last looked (after a scan of its
   * directories or a page written), for processes that have not scanned yet.
   *
   * @param room whether the pages fill under 90% of the quota
   */
  public void recordRoom(boolean room) {
    byte v = room ? ROOM : FULL;
    ownRoom = v;
    if (!usable()) {
      return;
    }
    try {
      if (readByte(ROOM_AT) != v) {
        try (FileChannel w = FileChannel.open(file, StandardOpenOption.WRITE)) {
          w.write(ByteBuffer.wrap(new byte[] {v}), ROOM_AT);
        }
      }
    } catch (IOException e) {
      failed(e);
    }
  }

  /**
   * @return whether the host's cache was nearly full when a process last looked (false when none
   *     has)
   */
  public boolean hostWasFull() {
    if (!usable()) {
      return ownRoom == FULL;
    }
    try {
      return readByte(ROOM_AT) == FULL;
    } catch (IOException e) {
      failed(e);
      return ownRoom == FULL;
    }
  }

  private void failed(IOException e) {
    if (e instanceof ClosedChannelException) {
      return; // closed with its store, or by a reader's interrupt: reopened for the others
    }
    if (warned.compareAndSet(false, true)) {
      LOG.warn(
          "dtap cache: cannot use the admission sightings file {} ({}); this process goes by its"
              + " own",
          file,
          e.toString());
    }
  }

  /** Closes the file; later calls answer from this process's sightings. */
  @Override
  public synchronized void close() {
    closed = true;
    if (reader != null) {
      try {
        reader.close();
      } catch (IOException e) {
        // a read-only channel: nothing to lose
      }
    }
  }
}
