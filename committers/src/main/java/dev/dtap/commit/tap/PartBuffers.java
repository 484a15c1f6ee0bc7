package dev.dtap.commit.tap;

import java.lang.ref.SoftReference;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Part memory shared by the magic streams of one JVM: arrays of {@link #SIZE} bytes that come back
 * once their part is uploaded, so that a task writing gigabytes does not allocate, zero and
 * garbage-collect gigabytes. Idle arrays are held softly: the collector takes them back whenever
 * the heap needs the room, so the pool never holds memory a task needs.
 *
 * <p>An array is handed to one stream at a time: a stream gives a part's arrays back only after the
 * part's upload has returned, when nothing reads them any more. Arrays come back unzeroed; a part
 * is only ever read up to its length. Thread-safe.
 */
public final class PartBuffers {
  /** Size of the arrays that make up a part. */
  static final int SIZE = 1 << 20;

  /** Size of a file's first array: a small file takes no more. */
  static final int FIRST_SIZE = 64 << 10;

  /** The pool of this JVM. */
  public static final PartBuffers SHARED = new PartBuffers();

  private final Deque<SoftReference<byte[]>> idle = new ConcurrentLinkedDeque<>();
  private final Deque<SoftReference<byte[]>> idleFirst = new ConcurrentLinkedDeque<>();

  /**
   * @return an array of {@link #SIZE} bytes, recently used if one is idle
   */
  byte[] take() {
    return take(idle, SIZE);
  }

  /**
   * @return an array of {@link #FIRST_SIZE} bytes, recently used if one is idle
   */
  byte[] takeFirst() {
    return take(idleFirst, FIRST_SIZE);
  }

  private static byte[] take(Deque<SoftReference<byte[]>> pool, int size) {
    SoftReference<byte[]> ref;
    while ((ref = pool.pollFirst()) != null) {
      byte[] b = ref.get();
      if (b != null) {
        return b;
      }
    }
    return new byte[size];
  }

  /**
   * Takes back a part's arrays; arrays of other sizes are left to the collector.
   *
   * @param arrays arrays no one reads or writes any more
   */
  void give(List<byte[]> arrays) {
    for (byte[] b : arrays) {
      if (b.length == SIZE) {
        idle.offerFirst(new SoftReference<>(b));
      } else if (b.length == FIRST_SIZE) {
        idleFirst.offerFirst(new SoftReference<>(b));
      }
    }
  }

  /**
   * @return idle arrays not yet collected, for tests
   */
  public int idleCount() {
    int n = 0;
    for (Deque<SoftReference<byte[]>> d : List.of(idle, idleFirst)) {
      for (SoftReference<byte[]> r : d) {
        n += r.get() != null ? 1 : 0;
      }
    }
    return n;
  }
}
