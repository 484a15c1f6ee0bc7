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
