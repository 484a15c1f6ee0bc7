package dev.dtap.cache;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Adjacent pages {@code first..last} a vectored range needs, asked of the backend as one range, and
 * their bytes once they have landed and been kept.
 *
 * <p>Thread-safe: immutable but for the future.
 */
final class PageRun {
  private final long first;
  private final long last;
  private final CompletableFuture<byte[][]> pages;

  /**
   * @param first the first page
   * @param last the last page
   * @param pages the pages' bytes, first to last, once landed and kept
   */
  PageRun(long first, long last, CompletableFuture<byte[][]> pages) {
    this.first = first;
    this.last = last;
    this.pages = pages;
  }

  /**
   * @return the pages, one array per page, once they landed; fails with the backend's error
   */
  CompletableFuture<byte[][]> pages() {
    return pages;
  }

  /** A page of a run that has landed. */
  byte[] landedPage(long index) {
    return pages.join()[(int) (index - first)];
  }

  /**
   * @return the run that holds page {@code index}, or null
   */
  static PageRun holding(List<PageRun> runs, long index) {
    for (PageRun r : runs) {
      if (index >= r.first && index <= r.last) {
        return r;
      }
    }
    return null;
  }

  /**
   * @return a future done when every run has landed, failed if any failed
   */
  static CompletableFuture<Void> allLanded(Collection<PageRun> runs) {
    return CompletableFuture.allOf(
        runs.stream().map(r -> r.pages).toArray(CompletableFuture[]::new));
  }
}
