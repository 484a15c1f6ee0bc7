package dev.dtap.commit.s3;

import dev.dtap.commit.store.StoreStatistics;
import dev.dtap.commit.store.StoreStatistics.Op;
import java.io.IOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * A listing fetched a page at a time, as the caller consumes it; subclasses say what a page yields
 * and where the next one starts. Not thread-safe, as iterators are not.
 *
 * @param <P> a page as the client returns it
 * @param <T> what the listing yields
 */
abstract class ListingPages<P, T> implements RemoteIterator<T> {
  /** Fetches one page. */
  @FunctionalInterface
  interface Fetch<P> {
    /**
     * @param token where the page starts, from the previous page; null for the first
     * @return the page
     * @throws IOException if the store refuses or cannot be reached
     */
    P page(String token) throws IOException;
  }

  private final Fetch<P> fetch;
  private final String where;
  private final StoreStatistics stats;
  private String token;
  private boolean last;
  private Iterator<T> current = Collections.emptyIterator();

  /**
   * @param fetch fetches pages
   * @param where the dtap path listed, for messages
   * @param stats counts each page's request
   */
  ListingPages(Fetch<P> fetch, String where, StoreStatistics stats) {
    this.fetch = fetch;
    this.where = where;
    this.stats = stats;
  }

  /**
   * @return what a page yields
   */
  abstract Iterator<T> items(P page);

  /**
   * @return where the next page starts, or null after the last page
   */
  abstract String next(P page);

  @Override
  public boolean hasNext() throws IOException {
    while (!current.hasNext() && !last) {
      stats.request(Op.LIST);
      P page = fetch.page(token);
      current = items(page);
      token = next(page);
      last = token == null;
    }
    return current.hasNext();
  }

  @Override
  public T next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException("no more objects under " + where);
    }
    return current.next();
  }
}
