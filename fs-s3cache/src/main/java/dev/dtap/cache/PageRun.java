package dev.dtap.cache;

import java.nio.ByteBuffer;
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
  private final CompletableFuture<ByteBuffer[]> pages;

  /**
   * @param first the first page
   * @param last the last page
   * @param pages the pages' bytes (read-only, position 0), first to last, once landed and kept
   */
  PageRun(long first, long last, CompletableFuture<ByteBuffer[]> pages) {
    this.first = first;
    this.last = last;
    this.pages = pages;
  }

  /**
   * Copies bytes of a page of a run that has landed.
   *
   * @param index the page
   * @param inPage where in the page to start
   */
  void copy(long index, int inPage, byte[] dst, int dstOff, int len) {
    ByteBuffer page = pages.join()[(int) (index - first)].duplicate();
    page.position(inPage);
    page.get(dst, dstOff, len);
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
