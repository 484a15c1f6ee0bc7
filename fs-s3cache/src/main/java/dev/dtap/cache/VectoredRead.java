package dev.dtap.cache;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.FileRange;

/**
 * One {@code readVectored} call on a {@link CachingInputStream}. Ranges whose pages are cached are
 * served at once. The pages the others need and nobody has are asked of the backend in one vectored
 * read of its own, a run of pages per range, which the backend fetches side by side (S3A, the
 * analytics accelerator) and which returns before they land; each range completes as soon as the
 * runs under it have landed and been stored, so the caller decodes the first column chunk while the
 * others are still on the wire, as it would reading the backend without the cache.
 *
 * <p>Admission applies as to a sequential read: a range none of whose pages is cached or admitted
 * (a lone reader meeting them for the first time on a cache without room) goes to the backend as it
 * is, in a vectored read of its own straight into the caller's buffers, and lands nothing.
 *
 * <p>Ranges are written straight into the caller's buffers. A page that is neither cached nor
 * fetched here because another reader is loading it is waited for on the cache's background
 * threads, never on the caller's or the backend's.
 *
 * <p>Not thread-safe: one call, run once.
 */
final class VectoredRead {
  private final CachingInputStream in;
  private final PageFetch fetch;
  private final List<? extends FileRange> ranges;
  private final IntFunction<ByteBuffer> allocate;
  private final long length;
  private final int pageSize;

  VectoredRead(
      CachingInputStream in,
      PageFetch fetch,
      List<? extends FileRange> ranges,
      IntFunction<ByteBuffer> allocate,
      long length,
      int pageSize) {
    this.in = in;
    this.fetch = fetch;
    this.ranges = ranges;
    this.allocate = allocate;
    this.length = length;
    this.pageSize = pageSize;
  }

  /**
   * Starts the read: every range has its future when this returns, and those that need no backend
   * read are complete.
   *
   * @throws IllegalArgumentException for a negative length or overlapping ranges
   * @throws EOFException for a range outside the file
   * @throws IOException if the backend refuses the read: every range not complete by then fails
   *     with it, except those already handed to the backend as they are, which complete as it
   *     answers them
   */
  void run() throws IOException {
    List<FileRange> sorted = validated();
    for (FileRange r : ranges) {
      r.setData(new CompletableFuture<>());
    }
    List<FileRange> through = new ArrayList<>();
    List<Target> pending = new ArrayList<>();
    Map<Long, Boolean> admitted = new HashMap<>();
    List<PageRun> runs;
    boolean handedOver = false;
    try {
      for (FileRange r : sorted) {
        if (streamsThrough(r, admitted)) {
          through.add(r);
          continue;
        }
        Target t = new Target(r, allocate.apply(r.getLength()));
        if (in.readCached(r.getOffset(), t.array, t.offset, r.getLength())) {
          t.complete();
        } else {
          pending.add(t);
        }
      }
      fetch.readThrough(through, allocate);
      handedOver = true;
      if (pending.isEmpty()) {
        return;
      }
      runs = fetch.load(missingRuns(pending));
    } catch (IOException | RuntimeException e) {
      for (FileRange r : sorted) {
        if (!(handedOver && through.contains(r))) {
          r.getData().completeExceptionally(e); // no-op for a range already complete
        }
      }
      throw e;
    }
    for (Target t : pending) {
      Set<PageRun> under = new LinkedHashSet<>();
      for (long p = firstPage(t.range); p <= lastPage(t.range); p++) {
        PageRun run = PageRun.holding(runs, p);
        if (run != null) {
          under.add(run);
        }
      }
      PageRun.allLanded(under).whenComplete((v, failure) -> serve(t, runs, failure));
    }
  }

  private List<FileRange> validated() throws EOFException {
    List<FileRange> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingLong(FileRange::getOffset));
    long previousEnd = -1;
    for (FileRange r : sorted) {
      if (r.getLength() < 0) {
        throw new IllegalArgumentException("Invalid range " + r + ": negative length");
      }
      if (r.getOffset() < 0) {
        throw new EOFException("Invalid range " + r + ": negative offset");
      }
      if (r.getOffset() + r.getLength() > length) {
        throw new EOFException(
            "Range " + r + " is beyond the end of the file (" + length + " bytes)");
      }
      if (r.getOffset() < previousEnd) {
        throw new IllegalArgumentException(
            "Overlapping ranges " + r + " and one ending at " + previousEnd);
      }
      previousEnd = r.getOffset() + r.getLength();
    }
    return sorted;
  }

  /**
   * Whether a range goes to the backend uncached: none of its pages is cached or loading, and
   * admission takes none of them (each is met, and so remembered).
   */
  private boolean streamsThrough(FileRange r, Map<Long, Boolean> admitted) {
    if (r.getLength() == 0) {
      return false;
    }
    boolean any = false;
    for (long p = firstPage(r); p <= lastPage(r); p++) {
      if (in.pageAvailable(p)) {
        return false;
      }
      // once per page and call: a page two ranges share is met once, not admitted by the second
      any |= admitted.computeIfAbsent(p, in::admitsLanding);
    }
    return !any;
  }

  private long firstPage(FileRange r) {
    return r.getOffset() / pageSize;
  }

  private long lastPage(FileRange r) {
    return r.getLength() == 0 ? firstPage(r) : (r.getOffset() + r.getLength() - 1) / pageSize;
  }

  /**
   * Pages the pending ranges need that are neither cached nor loading, as runs {first, last}: one
   * run per range (the page two ranges share goes with the first), so that ranges land one by one
   * and the backend fetches them side by side, as it would the caller's ranges without the cache.
   * Ranges inside one page share its run.
   */
  private List<long[]> missingRuns(List<Target> pending) {
    List<long[]> runs = new ArrayList<>();
    long claimedThrough = -1;
    for (Target t : pending) {
      FileRange r = t.range;
      long[] open = null;
      for (long p = Math.max(firstPage(r), claimedThrough + 1); p <= lastPage(r); p++) {
        claimedThrough = p;
        if (in.pageAvailable(p)) {
          open = null;
        } else if (open != null) {
          open[1] = p;
        } else {
          open = new long[] {p, p};
          runs.add(open);
        }
      }
    }
    return runs;
  }

  /**
   * Completes a range once the runs under it have landed: from their pages and from cached pages. A
   * page neither fetched here nor cached (another reader is loading it) is waited for off the
   * backend's thread, which that other load may need.
   */
  private void serve(Target t, List<PageRun> runs, Throwable failure) {
    if (failure != null) {
      t.range.getData().completeExceptionally(unwrap(failure));
      return;
    }
    try {
      if (fill(t, runs, false)) {
        t.complete();
        return;
      }
      in.runInBackground(() -> fillAndComplete(t, runs));
    } catch (RejectedExecutionException e) {
      // the cache closed while the run was on the wire
      t.range.getData().completeExceptionally(in.closedError());
    } catch (Throwable e) {
      // an Error too: a range left incomplete would hang its caller forever
      t.range.getData().completeExceptionally(e);
    }
  }

  private void fillAndComplete(Target t, List<PageRun> runs) {
    try {
      fill(t, runs, true);
      t.complete();
    } catch (Throwable e) {
      t.range.getData().completeExceptionally(e);
    }
  }

  /**
   * Copies a range's bytes from the landed runs and the cache.
   *
   * @param load whether to wait for or load a page found in neither
   * @return false if a page was in neither and {@code load} is false
   */
  private boolean fill(Target t, List<PageRun> runs, boolean load) throws IOException {
    FileRange r = t.range;
    int done = 0;
    while (done < r.getLength()) {
      long p = r.getOffset() + done;
      long index = p / pageSize;
      int inPage = (int) (p - index * pageSize);
      int n =
          (int)
              Math.min(
                  r.getLength() - done, Math.min(pageSize, length - index * pageSize) - inPage);
      PageRun run = PageRun.holding(runs, index);
      if (run != null) {
        System.arraycopy(run.landedPage(index), inPage, t.array, t.offset + done, n);
      } else if (!in.readCached(p, t.array, t.offset + done, n)) {
        if (!load) {
          return false;
        }
        System.arraycopy(in.page(index), inPage, t.array, t.offset + done, n);
      }
      done += n;
    }
    return true;
  }

  static Throwable unwrap(Throwable t) {
    return (t instanceof CompletionException || t instanceof ExecutionException)
            && t.getCause() != null
        ? t.getCause()
        : t;
  }

  /**
   * A range and the caller's buffer for it, written through its array (or a heap copy when the
   * caller allocates off the heap).
   */
  private static final class Target {
    final FileRange range;
    final ByteBuffer out;
    final byte[] array;
    final int offset;

    Target(FileRange range, ByteBuffer out) {
      this.range = range;
      this.out = out;
      if (out.hasArray()) {
        this.array = out.array();
        this.offset = out.arrayOffset() + out.position();
      } else {
        this.array = new byte[range.getLength()];
        this.offset = 0;
      }
    }

    void complete() {
      if (out.hasArray()) {
        out.limit(out.position() + range.getLength());
      } else {
        out.put(array, 0, range.getLength());
        out.flip();
      }
      range.getData().complete(out);
    }
  }
}
