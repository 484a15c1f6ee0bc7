package dev.dtap.cache;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cache's fail-open policy: a fault of the cache itself (a full disk, a permission problem, an
 * I/O error, a disk slower than the deadline) never fails the caller's read. It is counted, logged
 * once per cause at WARN, and the disk tier is bypassed for a while, so reads go to the backend
 * until the disk is tried again.
 *
 * <p>Thread-safe.
 */
final class Faults {
  private static final Logger LOG = LoggerFactory.getLogger(Faults.class);

  /** Why the cache failed. */
  enum Cause {
    DISK_FULL,
    PERMISSION,
    IO_ERROR,
    SLOW_DISK;

    String counter() {
      return "dtap_cache_fault_" + name().toLowerCase(Locale.ROOT);
    }
  }

  private final long bypassNanos;
  private final Map<Cause, AtomicLong> counts = new EnumMap<>(Cause.class);
  private final Map<Cause, AtomicBoolean> warned = new EnumMap<>(Cause.class);
  private volatile long bypassUntil;

  Faults(long bypassNanos) {
    this.bypassNanos = bypassNanos;
    for (Cause c : Cause.values()) {
      counts.put(c, new AtomicLong());
      warned.put(c, new AtomicBoolean());
    }
    this.bypassUntil = System.nanoTime();
  }

  /**
   * @return whether the disk tier may be used now
   */
  boolean diskUsable() {
    return System.nanoTime() - bypassUntil >= 0;
  }

  /**
   * Records a fault and bypasses the disk tier.
   *
   * @param cause the cause
   * @param what the operation, for the log (never a path with secrets)
   * @param e the failure, or null for a slow operation
   */
  void fault(Cause cause, String what, Throwable e) {
    counts.get(cause).incrementAndGet();
    bypassUntil = System.nanoTime() + bypassNanos;
    if (warned.get(cause).compareAndSet(false, true)) {
      LOG.warn(
          "dtap cache: {} during {} ({}); reads go to the backend for {} ms, further faults of this"
              + " kind are only counted ({})",
          cause.name().toLowerCase(Locale.ROOT).replace('_', ' '),
          what,
          e == null
              ? "exceeded the deadline"
              : e.getClass().getSimpleName() + ": " + e.getMessage(),
          bypassNanos / 1_000_000,
          cause.counter());
    }
  }

  /** Classifies an I/O failure of the cache's disk. */
  static Cause classify(IOException e) {
    if (e instanceof AccessDeniedException) {
      return Cause.PERMISSION;
    }
    String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    if (m.contains("no space left") || m.contains("disk quota exceeded")) {
      return Cause.DISK_FULL;
    }
    if (m.contains("permission denied")
        || m.contains("read-only file system")
        || (e instanceof FileSystemException && m.contains("operation not permitted"))) {
      return Cause.PERMISSION;
    }
    return Cause.IO_ERROR;
  }

  long count(Cause c) {
    return counts.get(c).get();
  }
}
