package dev.dtap.commit;

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
 * <p>An array is handed to one stream at a time: a stream gives a part's arrays back only after
 * the part's upload has returned, when nothing reads them any more. Arrays come back unzeroed; a
 * part is only ever read up to its length. Thread-safe.
 */
final class PartBuffers {
  /** Size of every pooled array. */
  static final int SIZE = 1 << 20;

  /** The pool of this JVM. */
  static final PartBuffers SHARED = new PartBuffers();

  private final Deque<SoftReference<byte[]>> idle = new ConcurrentLinkedDeque<>();

  /** @return an array of {@link #SIZE} bytes, recently used if one is idle */
  byte[] take() {
    SoftReference<byte[]> ref;
    while ((ref = idle.pollFirst()) != null) {
      byte[] b = ref.get();
      if (b != null) {
        return b;
      }
    }
    return new byte[SIZE];
  }

  /**
   * Takes back a part's arrays; arrays of another size are left to the collector.
   *
   * @param arrays arrays no one reads or writes any more
   */
  void give(List<byte[]> arrays) {
    for (byte[] b : arrays) {
      if (b.length == SIZE) {
        idle.offerFirst(new SoftReference<>(b));
      }
    }
  }

  /** @return idle arrays not yet collected, for tests */
  int idleCount() {
    int n = 0;
    for (SoftReference<byte[]> r : idle) {
      n += r.get() != null ? 1 : 0;
    }
    return n;
  }
}
