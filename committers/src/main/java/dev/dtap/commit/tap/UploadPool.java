package dev.dtap.commit.tap;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tap's threads for uploading parts and files, shared by every magic stream and staging task of
 * the tap in this JVM, so that a task writing many files at once does not start a pool per file.
 * Sized by the first committer configuration that asks for it and grown, never shrunk, by later
 * ones; idle threads end after a minute, and {@link #shutdown} ends them with the tap. Work handed
 * to it runs tagged with its submitter's job and task attempt ({@link AuditContext}). Thread-safe.
 */
public final class UploadPool {
  private ThreadPoolExecutor uploads;
  private Executor tagged;

  /**
   * @param threads the threads the asking committer's configuration wants
   * @return the executor, grown to at least that many threads
   */
  synchronized Executor executor(int threads) {
    if (uploads == null) {
      uploads =
          new ThreadPoolExecutor(
              threads,
              threads,
              60,
              TimeUnit.SECONDS,
              new LinkedBlockingQueue<>(),
              daemon("dtap-commit-upload"));
      uploads.allowCoreThreadTimeOut(true);
      tagged = AuditContext.carrying(uploads);
    } else if (uploads.getMaximumPoolSize() < threads) {
      uploads.setMaximumPoolSize(threads);
      uploads.setCorePoolSize(threads);
    }
    return tagged;
  }

  /** Lets queued work finish and the threads end; the tap is closing. */
  synchronized void shutdown() {
    if (uploads != null) {
      uploads.shutdown();
    }
  }

  /**
   * @param name the threads' name prefix
   * @return a factory of daemon threads named {@code name-1}, {@code name-2}...
   */
  public static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
