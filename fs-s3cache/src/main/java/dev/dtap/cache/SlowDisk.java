package dev.dtap.cache;

import java.util.concurrent.TimeUnit;

/**
 * Tells a slow cache disk from a slow moment of the JVM. One disk operation that outlasts the
 * deadline may have met a collection pause, or a moment without a processor on a loaded host, which
 * stretch every operation in flight alike; taking it for a slow disk would send a JVM's reads to
 * the backend for the whole bypass time. The disk is called slow when an operation begun after the
 * first slow one ended outlasts the deadline too, within {@link #CONFIRM_WINDOW_NANOS} of it.
 * Operations begun before the first slow one ended were in flight with it, and cannot confirm it:
 * one pause is one episode, however many operations it stretched, while a disk that stays slow
 * confirms itself with the next operation any thread begins.
 *
 * <p>Thread-safe.
 */
final class SlowDisk {
  /** How soon a second slow operation must follow the first to confirm it. */
  static final long CONFIRM_WINDOW_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final long deadlineNanos;

  /** Whether a slow operation waits for confirmation; it ended at {@link #firstEnd}. */
  private boolean pending;

  private long firstEnd;

  /** Whether a slow disk was confirmed; the confirming operation ended at {@link #confirmedEnd}. */
  private boolean confirmed;

  private long confirmedEnd;

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
   *     operation that ended before this one began and no longer than the window ago. Operations in
   *     flight with the confirming one count for nothing; the next confirmation needs two slow
   *     operations again
   */
  boolean confirms(long start, long end) {
    if (end - start <= deadlineNanos) {
      return false;
    }
    synchronized (this) {
      if (confirmed && start - confirmedEnd < 0) {
        return false; // stretched with the operation that confirmed the last fault
      }
      if (pending && start - firstEnd < 0) {
        if (end - firstEnd < 0) {
          firstEnd = end; // in flight with the first, and ended before it: the episode's first end
        }
        return false;
      }
      if (pending && start - firstEnd <= CONFIRM_WINDOW_NANOS) {
        pending = false;
        confirmed = true;
        confirmedEnd = end;
        return true;
      }
      pending = true;
      firstEnd = end;
      return false;
    }
  }
}
