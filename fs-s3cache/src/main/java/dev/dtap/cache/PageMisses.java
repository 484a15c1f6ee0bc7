package dev.dtap.cache;

import dev.dtap.cache.disk.PageKey;
import java.io.IOException;

/**
 * How one stream gets what the cache lacks: pages loaded through the store (one load per page
 * however many readers miss it), bytes passed straight through from the backend, and the admission
 * of what a lone scan meets first ({@link Admission}).
 *
 * <p>Thread-safe: the stream's reads, its positioned reads and its read-ahead call it at once; the
 * backend stream they share ({@link DemandStream}) takes one read at a time.
 */
final class PageMisses {
  private final PageStore store;
  private final Admission admission;
  private final FileIdentity id;
  private final BackendSource source;
  private final DemandStream demand;
  private final CacheCounters counters;
  private final PageOwners owners;
  private final int pageSize;
  private final long length;

  PageMisses(
      PageStore store,
      FileIdentity id,
      BackendSource source,
      DemandStream demand,
      CacheCounters counters,
      PageOwners owners) {
    this.store = store;
    this.admission = store.admission();
    this.id = id;
    this.source = source;
    this.demand = demand;
    this.counters = counters;
    this.owners = owners;
    this.pageSize = store.config().pageSize();
    this.length = id.length();
  }

  private int pageLength(long index) {
    return (int) Math.min(pageSize, length - index * pageSize);
  }

  private String ownerOf(long index) {
    return owners.ownerOf(index * pageSize);
  }

  /**
   * Loads a page a sequential reader meets: its own reads' or its read-ahead's.
   *
   * @throws IOException if the backend read fails
   */
  byte[] loadAhead(long index) throws IOException {
    return loadThroughStore(index, admission.isLoneScan(id));
  }

  /**
   * Loads a page through the store, which keeps it and shares the load with other readers.
   *
   * @param scan whether a lone sequential reader wants the page: one the backend sends then goes to
   *     the host only ({@link PageStore#loadForScan})
   * @throws IOException if the backend read fails
   */
  byte[] loadThroughStore(long index, boolean scan) throws IOException {
    PageStore.Loader loader =
        store.host().shared() || isHole(index)
            ? () -> source.readRange(index * pageSize, pageLength(index))
            : () -> loadPage(index);
    PageKey key = id.page(index);
    return scan
        ? store.loadForScan(key, ownerOf(index), loader, counters)
        : store.load(key, ownerOf(index), loader, counters);
  }

  /** Reads a whole page from the backend on the stream's own backend stream. */
  private byte[] loadPage(long index) throws IOException {
    byte[] page = new byte[pageLength(index)];
    demand.readFully(index * pageSize, page, 0, page.length);
    return page;
  }

  /**
   * Whether a missing page lies before one the cache holds. Read through the reader's backend
   * stream, S3A's analytics stream widens such a read by a prefetch of its own into pages the cache
   * already has: a repeated TeraSort whose first run had dropped 5 MB of page writes read 79 MB
   * from the store. A hole is read as one exact range instead.
   */
  private boolean isHole(long index) {
    long next = index + 1;
    return next * pageSize < length && store.isCached(id.page(next));
  }

  /**
   * A whole page as one exact range from the backend, not kept: what a lone scan on a host whose
   * pages are shared holds for its next reads.
   *
   * @throws IOException if the backend read fails
   */
  byte[] uncachedPage(long index) throws IOException {
    int pageLen = pageLength(index);
    byte[] page = source.readRange(index * pageSize, pageLen);
    counters.backend(pageLen);
    return page;
  }

  /** Loads a page in the background, after a random read took only what it asked for. */
  void fillInBackground(long index) {
    long pageOffset = index * pageSize;
    int pageLen = pageLength(index);
    store.loadInBackground(
        id.page(index),
        ownerOf(index),
        () -> source.readRange(pageOffset, pageLen),
        pageLen,
        counters);
  }

  /**
   * Admission of a page the stream meets in the store's absence: true when it should stream through
   * uncached and only be remembered (see {@link Admission}).
   */
  boolean firstTouch(PageKey key, boolean random) {
    return admission.isLoneScan(id)
        && !store.isLoading(key)
        && !admission.admitScannedPage(key, random);
  }

  /**
   * How far a random read that streams through may go in one backend request: on through the
   * following pages it spans while they too are neither cached nor met before, so that a read
   * crossing a page boundary costs one ranged read, not two.
   *
   * @param n the bytes the read wants of its first page
   * @param len the bytes the read wants in all
   */
  int firstTouchSpan(long index, int n, int len) {
    int span = n;
    for (long next = index + 1; span < len && next * pageSize < length; next++) {
      PageKey key = id.page(next);
      if (store.isCachedOrLoading(key) || !firstTouch(key, true)) {
        break;
      }
      counters.miss();
      span += Math.min(len - span, pageLength(next));
    }
    return span;
  }

  /**
   * Reads bytes of a page that is not cached straight from the backend stream: a scan's reads
   * continue the backend's sequential read; a random or positioned read is one positioned read of
   * exactly its range, which HDFS serves without a block reader to the block's end.
   *
   * <p>On a host whose pages are shared by its JVMs, every such read is one exact range of its own
   * instead: the other JVMs fill the pages around this one, so a pass through the backend breaks at
   * every page they have, and an open-ended request (an S3 GET to the object's end) sends bytes
   * nobody reads before it is aborted.
   *
   * @return n
   * @throws IOException if the backend read fails
   */
  int passThrough(long position, byte[] buf, int off, int n, boolean scan) throws IOException {
    if (store.host().shared()) {
      System.arraycopy(source.readRange(position, n), 0, buf, off, n);
    } else if (scan) {
      demand.readOn(position, buf, off, n);
    } else {
      demand.readFully(position, buf, off, n);
    }
    counters.backend(n);
    return n;
  }
}
