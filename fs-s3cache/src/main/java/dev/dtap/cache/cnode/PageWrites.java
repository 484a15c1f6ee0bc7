package dev.dtap.cache.cnode;

import dev.dtap.cache.disk.PageKey;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's page writes: on the disk threads, with the bytes waiting for the disk bounded and
 * each write bounded by {@code fs.dtap.cnode.write.deadline}. A write past its deadline is given up
 * on (its outcome is "not landed", so its fill passes on), and its bytes stay counted until the
 * write itself ends: a disk that hangs fills the queue, and further pages are refused, never held
 * in the heap of the process the service runs in (a NodeManager's).
 *
 * <p>Thread-safe.
 */
final class PageWrites {
  private static final Logger LOG = LoggerFactory.getLogger(PageWrites.class);

  /** Page bytes waiting for the disk at most (fills and offers). */
  static final long QUEUED_BYTES_MAX = 256L << 20;

  private final CacheNode node;
  private final ExecutorService diskPool;
  private final AtomicLong queuedBytes = new AtomicLong();

  /** Whether the last write to settle was given up on: warned once per spell. */
  private final AtomicBoolean diskLate = new AtomicBoolean();

  PageWrites(CacheNode node, ExecutorService diskPool) {
    this.node = node;
    this.diskPool = diskPool;
  }

  /**
   * Writes a page on a disk thread.
   *
   * @param key the page
   * @param data its bytes, not changed afterwards
   * @param wanted asked on the disk thread just before writing: false skips the write
   * @return completes, on a disk or timer thread, with true when the page landed within the
   *     deadline; false when the queue was full, the service is stopping, the write was skipped,
   *     found no room under the quota or failed, or its deadline passed first (the write may still
   *     land later, and is kept then)
   */
  CompletableFuture<Boolean> write(PageKey key, byte[] data, BooleanSupplier wanted) {
    CompletableFuture<Boolean> landed = new CompletableFuture<>();
    if (!reserve(data.length)) {
      landed.complete(false);
      return landed;
    }
    ScheduledFuture<?> deadline =
        node.timer()
            .schedule(
                () -> giveUp(landed),
                node.settings().writeDeadline().toMillis(),
                TimeUnit.MILLISECONDS);
    try {
      diskPool.execute(() -> run(key, data, wanted, landed, deadline));
    } catch (RejectedExecutionException e) {
      // stopping
      deadline.cancel(false);
      queuedBytes.addAndGet(-data.length);
      landed.complete(false);
    }
    return landed;
  }

  private void giveUp(CompletableFuture<Boolean> landed) {
    if (landed.complete(false)) {
      node.metrics().writesAbandoned.increment();
      if (!diskLate.getAndSet(true)) {
        LOG.warn(
            "dtap cnode: the disk did not take a page within {} ({}); giving up on late writes"
                + " (cnode_writes_abandoned) until one lands in time",
            node.settings().writeDeadline(),
            CnodeKeys.WRITE_DEADLINE.name());
      }
    }
  }

  private void run(
      PageKey key,
      byte[] data,
      BooleanSupplier wanted,
      CompletableFuture<Boolean> landed,
      ScheduledFuture<?> deadline) {
    boolean written = false;
    try {
      // given up on while queued behind a hung write: never started
      if (!landed.isDone() && wanted.getAsBoolean()) {
        written = node.disk().write(key, data, data.length);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("dtap cnode: cannot store a page: {}", e.toString());
    } finally {
      queuedBytes.addAndGet(-data.length);
      deadline.cancel(false);
    }
    if (landed.complete(written) && written && diskLate.getAndSet(false)) {
      LOG.info("dtap cnode: the disk takes pages in time again");
    }
  }

  /**
   * Counts page bytes into the disk queue, unless it holds {@link #QUEUED_BYTES_MAX} already (a
   * page is always taken into an empty queue).
   */
  private boolean reserve(int bytes) {
    long after = queuedBytes.addAndGet(bytes);
    if (after > QUEUED_BYTES_MAX && after != bytes) {
      queuedBytes.addAndGet(-bytes);
      node.metrics().diskQueueFull.increment();
      return false;
    }
    return true;
  }
}
