package dev.dtap.cache.cnode;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Keeps a client from waiting on a service that is down or slow: after a number of consecutive
 * failures (errors or late answers) it opens, and requests are not made (the caller reads without
 * the service) until the open time has passed; then one request at a time probes the service, and
 * the first success closes it again.
 *
 * <p>Thread-safe. The clock is injected so that tests advance it instead of sleeping.
 */
public final class CircuitBreaker {
  private final int threshold;
  private final long openNanos;
  private final LongSupplier clock;
  private int failures;
  private long openUntil;
  private boolean open;
  private boolean probing;

  /**
   * @param threshold consecutive failures that open it
   * @param open how long it stays open
   * @param clock nanoseconds, as {@link System#nanoTime()}
   */
  public CircuitBreaker(int threshold, Duration open, LongSupplier clock) {
    this.threshold = threshold;
    this.openNanos = open.toNanos();
    this.clock = clock;
  }

  /**
   * @return whether a request may be made now; when it returns true after the open time, the caller
   *     is the probe and must report its outcome
   */
  public synchronized boolean allow() {
    if (!open) {
      return true;
    }
    if (probing || clock.getAsLong() - openUntil < 0) {
      return false;
    }
    probing = true;
    return true;
  }

  /** A request succeeded: the breaker closes. */
  public synchronized void success() {
    failures = 0;
    open = false;
    probing = false;
  }

  /** A request failed or was late. */
  public synchronized void failure() {
    failures++;
    if (probing || failures >= threshold) {
      open = true;
      probing = false;
      openUntil = clock.getAsLong() + openNanos;
    }
  }

  /**
   * @return whether requests are being held back now
   */
  public synchronized boolean isOpen() {
    return open;
  }
}
