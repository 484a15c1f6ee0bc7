package dev.dtap.commit.job;

import dev.dtap.commit.tap.AuditContext;
import dev.dtap.commit.tap.UploadPool;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs job commit's store operations on a pool: the submitting thread is throttled so that at most
 * a bounded number of units wait at once (memory stays bounded however many tasks the job had), the
 * first failure stops new work, and {@link #await} waits for everything submitted. No unit ever
 * waits for another, so the pool cannot deadlock. Thread-safe; one instance per commit.
 */
final class ParallelWork implements AutoCloseable {
  /** A unit of work. */
  interface Unit {
    void run() throws IOException;
  }

  private final ExecutorService pool;

  /** {@link #pool}, each unit tagged with its submitter's job and task attempt. */
  private final Executor tagged;

  private final Semaphore queued;
  private final AtomicReference<IOException> failure = new AtomicReference<>();
  private final Object lock = new Object();
  private long outstanding;

  ParallelWork(int threads, String name) {
    this.pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            10,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            UploadPool.daemon(name));
    this.tagged = AuditContext.carrying(pool);
    this.queued = new Semaphore(threads * 4);
  }

  /**
   * Submits a unit, blocking while too many wait.
   *
   * @throws IOException the first failure of an earlier unit, if any
   */
  void submit(Unit u) throws IOException {
    rethrow();
    try {
      queued.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while committing");
    }
    synchronized (lock) {
      outstanding++;
    }
    tagged.execute(() -> runUnit(u, true));
  }

  /**
   * Submits a unit from inside another unit, without throttling (a pool thread must never block on
   * the pool). The caller bounds what it submits this way.
   */
  void submitNested(Unit u) {
    synchronized (lock) {
      outstanding++;
    }
    tagged.execute(() -> runUnit(u, false));
  }

  private void runUnit(Unit u, boolean throttled) {
    try {
      if (failure.get() == null) {
        u.run();
      }
    } catch (IOException e) {
      failure.compareAndSet(null, e);
    } catch (RuntimeException e) {
      failure.compareAndSet(null, new IOException(e.toString(), e));
    } finally {
      if (throttled) {
        queued.release();
      }
      synchronized (lock) {
        outstanding--;
        lock.notifyAll();
      }
    }
  }

  /**
   * @return whether a unit has failed
   */
  boolean failed() {
    return failure.get() != null;
  }

  /**
   * Waits for every submitted unit.
   *
   * @throws IOException the first failure
   */
  void await() throws IOException {
    synchronized (lock) {
      while (outstanding > 0) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while committing");
        }
      }
    }
    rethrow();
  }

  private void rethrow() throws IOException {
    IOException e = failure.get();
    if (e != null) {
      throw e;
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
