package dev.dtap.cache;

import java.util.concurrent.TimeUnit;

/**
 * Tells a slow cache disk from a slow moment of the JVM. One disk operation that outlasts the
 * deadline may have met a collection pause, or a moment without a processor on a loaded host, which
 * stretch every operation in flight alike; taking it for a slow disk would send a JVM's reads to
 * the backend for the whole bypass time. The disk is called slow when a second operation, begun
 * after the first slow one ended, outlasts the deadline too, within {@link #CONFIRM_WINDOW_NANOS}
 * of it. Slow operations that overlap are one episode: one pause cannot confirm itself.
 *
 * <p>Thread-safe.
 */
final class SlowDisk {
  /** How soon a second slow operation must follow the first to confirm it. */
  static final long CONFIRM_WINDOW_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final long deadlineNanos;
  private boolean pending;
  private long episodeEnd;

  /**
   * @param deadlineNanos how long a disk operation may take
   */
  SlowDisk(long deadlineNanos) {
    this.deadlineNanos = deadlineNanos;
  }

  /**
   * Notes a finished disk operation.
   *
   * @param start when it began
   * @param end when it ended, on the same clock
   * @return true if it confirms a slow disk: it outlasted the deadline, and so did an earlier
   *     operation that ended before this one began and no longer than the window ago; the next
   *     confirmation then needs two slow operations again
   */
  boolean confirms(long start, long end) {
    if (end - start <= deadlineNanos) {
      return false;
    }
    synchronized (this) {
      boolean separate = pending && start - episodeEnd >= 0;
      if (separate && start - episodeEnd <= CONFIRM_WINDOW_NANOS) {
        pending = false;
        return true;
      }
      if (pending && !separate) {
        // the same episode: it ends when its last operation does
        episodeEnd = end - episodeEnd > 0 ? end : episodeEnd;
      } else {
        pending = true;
        episodeEnd = end;
      }
      return false;
    }
  }
}
