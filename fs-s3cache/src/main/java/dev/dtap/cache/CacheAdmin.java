package dev.dtap.cache;

import java.io.IOException;

/**
 * Operations on the read caches of this JVM, for tools, benchmarks and tests: wait for queued page
 * writes, or empty the caches.
 */
public final class CacheAdmin {
  private CacheAdmin() {}

  /**
   * Waits until every page loaded so far is written to disk.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public static void flushWrites() throws InterruptedException {
    for (PageStore s : PageStore.openStores()) {
      s.flush();
    }
  }

  /**
   * The heap budgets of every open cache of this JVM, as parsed from its settings (defaults scaled
   * to the JVM's heap included), for benchmarks that measure the heap against them.
   *
   * @return one line per open cache: memory tier, read-ahead and write queue, in MiB
   */
  public static String heapBudgets() {
    StringBuilder b = new StringBuilder();
    for (PageStore s : PageStore.openStores()) {
      CacheConfig c = s.config();
      b.append(
          String.format(
              "memory tier %d MiB, prefetch %d MiB, write queue %d MiB%n",
              c.memoryBytes() >> 20, c.prefetchMemory() >> 20, c.writeMemory() >> 20));
    }
    return b.toString();
  }

  /**
   * Empties every open cache of this JVM: memory, and the pages on disk (including those other JVMs
   * wrote to the same directories).
   *
   * @throws IOException if pages cannot be deleted
   * @throws InterruptedException if interrupted while waiting for queued writes
   */
  public static void clearAll() throws IOException, InterruptedException {
    for (PageStore s : PageStore.openStores()) {
      s.clear();
    }
  }
}
