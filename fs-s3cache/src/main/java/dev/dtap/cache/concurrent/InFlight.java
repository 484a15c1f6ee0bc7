package dev.dtap.cache.concurrent;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts work handed off and not yet ended, and lets a caller wait until none is left: a flush
 * before a test reads the disk, or a close that lets queued page writes land.
 *
 * <p>Entering and leaving cost one atomic update; only the last one out takes the lock, to wake
 * waiters, so the hot path (a page write, a fill) never contends on it. A waiter checks the count
 * under that lock before it waits, and the last one out notifies under it, so no wake-up is lost.
 *
 * <p>Thread-safe.
 */
public final class InFlight {
  private final AtomicInteger count = new AtomicInteger();
  private final Object idle = new Object();

  /** Counts one piece of work; call before handing it off, so that a waiter never misses it. */
  public void enter() {
    count.incrementAndGet();
  }

  /**
   * Ends one piece of work counted by {@link #enter()}.
   *
   * @throws IllegalStateException if more leave than entered
   */
  public void exit() {
    int left;
    do {
      int now = count.get();
      if (now == 0) {
        // refused without touching the count, so that no waiter or counter ever sees it below zero
        throw new IllegalStateException("more work ended than was started");
      }
      left = now - 1;
    } while (!count.compareAndSet(left + 1, left));
    if (left == 0) {
      synchronized (idle) {
        idle.notifyAll();
      }
    }
  }

  /**
   * @return the work counted and not yet ended
   */
  public int count() {
    return count.get();
  }

  /**
   * @return whether no work is in flight
   */
  public boolean isIdle() {
    return count.get() == 0;
  }

  /**
   * Waits until no work is in flight.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitIdle() throws InterruptedException {
    synchronized (idle) {
      while (count.get() > 0) {
        idle.wait();
      }
    }
  }

  /**
   * Waits until no work is in flight, or the bound passes.
   *
   * @param timeout the bound; zero or less only looks
   * @param unit its unit
   * @return whether the work ended within the bound
   * @throws InterruptedException if interrupted while waiting
   */
  public boolean awaitIdle(long timeout, TimeUnit unit) throws InterruptedException {
    if (timeout <= 0) {
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
      return isIdle();
    }
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    synchronized (idle) {
      while (count.get() > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(idle, left);
      }
    }
    return true;
  }
}
