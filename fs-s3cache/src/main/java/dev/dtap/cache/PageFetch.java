package dev.dtap.cache;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.FileRange;

/**
 * Fetches the pages a stream's vectored reads need from the backend and keeps them on the host.
 *
 * <p>Thread-safe: pages land on the backend's threads.
 */
final class PageFetch {
  private final PageStore store;
  private final FileIdentity id;
  private final DemandStream demand;
  private final CacheCounters counters;
  private final String description;
  private final int pageSize;
  private final long length;

  PageFetch(
      PageStore store,
      FileIdentity id,
      DemandStream demand,
      CacheCounters counters,
      String description) {
    this.store = store;
    this.id = id;
    this.demand = demand;
    this.counters = counters;
    this.description = description;
    this.pageSize = store.config().pageSize();
    this.length = id.length();
  }

  private int pageLength(long index) {
    return (int) Math.min(pageSize, length - index * pageSize);
  }

  /**
   * Asks the backend for page runs in one vectored read of its own, a range per run, which the
   * backend may fetch side by side and which returns before they land. A run lands off the heap and
   * is cut into pages there: on the heap a task JVM sizes for its engine, buffers of many pages are
   * humongous allocations that force full collections. Each run's pages are kept on the host as it
   * lands; a short answer fails the run with an EOFException and keeps nothing of it.
   *
   * @param runs page runs {first, last}, in order, not overlapping
   * @return the runs, in the same order
   * @throws IOException if the backend refuses the read
   */
  List<PageRun> load(List<long[]> runs) throws IOException {
    List<FileRange> fetches = new ArrayList<>(runs.size());
    for (long[] run : runs) {
      long offset = run[0] * pageSize;
      long end = Math.min(length, (run[1] + 1) * pageSize);
      fetches.add(FileRange.createFileRange(offset, (int) (end - offset)));
      counters.miss();
    }
    if (!fetches.isEmpty()) {
      demand.readVectored(fetches, ByteBuffer::allocateDirect);
    }
    List<PageRun> loading = new ArrayList<>(runs.size());
    for (int i = 0; i < runs.size(); i++) {
      long first = runs.get(i)[0];
      FileRange fetch = fetches.get(i);
      loading.add(
          new PageRun(
              first, runs.get(i)[1], fetch.getData().thenApply(buf -> landed(first, fetch, buf))));
    }
    return loading;
  }

  /**
   * Reads ranges the cache does not take straight from the backend, in one vectored read of its
   * own, into buffers of the caller's allocator: each range completes as the backend's does, and
   * nothing lands on the host.
   *
   * @param ranges the caller's ranges, their futures set and not complete
   * @param allocate the caller's allocator
   * @throws IOException if the backend refuses the read (the ranges fail with it too)
   */
  void readThrough(List<FileRange> ranges, IntFunction<ByteBuffer> allocate) throws IOException {
    if (ranges.isEmpty()) {
      return;
    }
    List<FileRange> reads = new ArrayList<>(ranges.size());
    for (FileRange r : ranges) {
      reads.add(FileRange.createFileRange(r.getOffset(), r.getLength()));
      counters.miss();
    }
    try {
      demand.readVectored(reads, allocate);
    } catch (IOException | RuntimeException e) {
      for (FileRange r : ranges) {
        r.getData().completeExceptionally(e);
      }
      throw e;
    }
    for (int i = 0; i < ranges.size(); i++) {
      FileRange caller = ranges.get(i);
      FileRange read = reads.get(i);
      read.getData()
          .whenComplete(
              (buf, failure) -> {
                if (failure != null) {
                  caller.getData().completeExceptionally(VectoredRead.unwrap(failure));
                } else if (buf.remaining() != caller.getLength()) {
                  caller.getData().completeExceptionally(shortAnswer(read, buf));
                } else {
                  counters.backend(caller.getLength());
                  caller.getData().complete(buf);
                }
              });
    }
  }

  private EOFException shortAnswer(FileRange fetch, ByteBuffer buf) {
    return new EOFException(
        "Backend returned "
            + buf.remaining()
            + " of "
            + fetch.getLength()
            + " bytes at "
            + fetch.getOffset()
            + ": "
            + description);
  }

  /** Cuts a landed run into pages and keeps them on the host. */
  private byte[][] landed(long first, FileRange fetch, ByteBuffer buf) {
    if (buf.remaining() != fetch.getLength()) {
      throw new CompletionException(shortAnswer(fetch, buf));
    }
    counters.backend(fetch.getLength());
    ByteBuffer from = buf.duplicate();
    int count = (int) ((fetch.getLength() + pageSize - 1) / pageSize);
    byte[][] pages = new byte[count][];
    for (int i = 0; i < count; i++) {
      byte[] page = new byte[pageLength(first + i)];
      from.get(page);
      store.keepOnHost(id.page(first + i), page);
      pages[i] = page;
    }
    return pages;
  }
}
