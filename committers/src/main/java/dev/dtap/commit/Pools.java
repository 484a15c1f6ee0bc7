package dev.dtap.commit;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JVM's threads for uploading parts and files, shared by every stream and staging task so that
 * a task writing many files at once does not start a pool per file. Sized by the first committer
 * configuration that asks for it and grown, never shrunk, by later ones. Idle threads end after a
 * minute. Work handed to it runs tagged with its submitter's job and task attempt ({@link
 * AuditContext}).
 */
final class Pools {
  private static ThreadPoolExecutor uploads;
  private static Executor tagged;

  private Pools() {}

  static synchronized Executor uploads(int threads) {
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

  static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
