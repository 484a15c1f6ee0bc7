package dev.dtap.cache;

import dev.dtap.cache.concurrent.InFlight;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The JVM's threads for prefetch and background page fills, with a byte budget: pages in flight at
 * once over all streams stay within {@code fs.dtap.cache.prefetch.memory}, and work beyond it is
 * skipped, never queued without bound.
 *
 * <p>Thread-safe.
 */
final class BackgroundLoads {
  private final ThreadPoolExecutor pool;
  private final long budget;
  private final AtomicLong used = new AtomicLong();

  /**
   * Tasks handed to the pool and not yet ended. The pool's own counts miss a task between {@code
   * execute} and its worker starting it, so a flush could return before a fill it had to wait for.
   */
  private final InFlight outstanding = new InFlight();

  BackgroundLoads(int threads, long budget) {
    this.pool = pool("dtap-cache-fill", threads);
    this.budget = budget;
  }

  /** A pool of daemon threads that end when idle for 30 s. */
  static ThreadPoolExecutor pool(String name, int threads) {
    ThreadPoolExecutor p =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true);
              return t;
            });
    p.allowCoreThreadTimeOut(true);
    return p;
  }

  /**
   * Reserves budget.
   *
   * @param bytes the bytes about to be loaded
   * @return false when the budget is spent (nothing reserved)
   */
  boolean reserve(long bytes) {
    if (used.addAndGet(bytes) > budget) {
      used.addAndGet(-bytes);
      return false;
    }
    return true;
  }

  void unreserve(long bytes) {
    used.addAndGet(-bytes);
  }

  /**
   * Runs a task on the pool.
   *
   * @throws java.util.concurrent.RejectedExecutionException after {@link #shutdown()}
   */
  void execute(Runnable task) {
    outstanding.enter();
    try {
      pool.execute(
          () -> {
            try {
              task.run();
            } finally {
              outstanding.exit();
            }
          });
    } catch (RuntimeException | Error e) {
      // refused, or no thread could be started for it: it never runs, so it is not waited for
      outstanding.exit();
      throw e;
    }
  }

  /**
   * Runs a task holding reserved budget, and gives the budget back when it ends (or is refused).
   *
   * @param bytes budget already reserved for it
   * @param task the work
   */
  void executeReserved(long bytes, Runnable task) {
    try {
      execute(
          () -> {
            try {
              task.run();
            } finally {
              unreserve(bytes);
            }
          });
    } catch (RuntimeException e) {
      unreserve(bytes);
    }
  }

  /**
   * @return whether no task is running or queued
   */
  boolean idle() {
    return outstanding.isIdle();
  }

  /**
   * Waits until no task is running or queued.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  void awaitIdle() throws InterruptedException {
    outstanding.awaitIdle();
  }

  void shutdown() {
    pool.shutdown();
  }

  /**
   * Takes no more tasks and waits, within the bound, for those queued or running: their pages are
   * worth keeping, and the backend they read is still open. Tasks that outlast the bound are left
   * to end on their own, never dropped: a reader may be waiting for one.
   *
   * @param timeoutNanos the bound
   * @return whether every task ended within it
   */
  boolean close(long timeoutNanos) {
    pool.shutdown();
    try {
      return pool.awaitTermination(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
