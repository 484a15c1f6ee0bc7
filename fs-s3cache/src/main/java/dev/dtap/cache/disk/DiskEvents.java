package dev.dtap.cache.disk;

/**
 * What the disk tier reports as it happens, for counters. Implementations are thread-safe and
 * cheap: they are called on the reading or writing thread.
 */
public interface DiskEvents {
  /** Reports nothing. */
  DiskEvents NONE = new DiskEvents() {};

  /** A page was evicted to stay within the quota. */
  default void eviction() {}

  /** A page failed verification; it was deleted and reads as a miss. */
  default void corruptPage() {}

  /** A page was not written: pages in use and pages being written fill the quota. */
  default void noRoom() {}
}
