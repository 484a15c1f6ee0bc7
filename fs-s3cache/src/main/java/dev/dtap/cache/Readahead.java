package dev.dtap.cache;

import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A stream's readahead: the next pages of a sequential reader, loaded in order on the store's
 * background pool through the reader's own backend stream, as a local disk's readahead feeds a
 * reader while it works on the current page. Bounded by the prefetch page count per stream and the
 * JVM's prefetch byte budget.
 *
 * <p>Thread-safe: the reader takes pages while a background task loads them.
 */
final class Readahead {
  /** Loads one page by index (through the host tier, else the backend). */
  interface PageLoader {
    byte[] load(long index) throws IOException;
  }

  private final BackgroundLoads background;
  private final PageLoader loader;
  private final CacheCounters counters;
  private final ConcurrentHashMap<Long, CompletableFuture<byte[]>> ready =
      new ConcurrentHashMap<>();

  /** The futures of queued pages, kept here too: the reader may take one from the map early. */
  private final ConcurrentHashMap<Long, CompletableFuture<byte[]>> pending =
      new ConcurrentHashMap<>();

  private final ConcurrentLinkedQueue<Long> queue = new ConcurrentLinkedQueue<>();

  /**
   * The budget each page holds from its queueing until the reader takes it (or its load fails, or
   * the stream closes): a page loaded and not yet taken is heap the budget must count, and 32
   * streams of a -Xmx1g JVM held 4 such pages each beyond a 32 MiB budget (CacheHeapBench,
   * 2026-12-07). Whoever removes a page's entry gives its bytes back.
   */
  private final ConcurrentHashMap<Long, Integer> sizes = new ConcurrentHashMap<>();

  private final AtomicBoolean running = new AtomicBoolean();
  private long queuedThrough = -1;
  private volatile boolean closed;

  Readahead(BackgroundLoads background, PageLoader loader, CacheCounters counters) {
    this.background = background;
    this.loader = loader;
    this.counters = counters;
  }

  /**
   * Takes a page read ahead.
   *
   * @param index the page
   * @return the page, or null if it was not read ahead or its load failed (the caller then reads it
   *     itself)
   */
  byte[] take(long index) {
    CompletableFuture<byte[]> f = ready.remove(index);
    if (f == null) {
      return null;
    }
    release(index); // the reader holds the page now, as it holds any page it reads
    try {
      byte[] page = f.get();
      counters.prefetchUsed();
      return page;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (ExecutionException | CancellationException e) {
      return null; // cancelled: the stream closed while a positioned read was in it
    }
  }

  /**
   * A page read ahead that has landed, left for the reader to take: for positioned reads, which
   * neither take the stream's pages nor wait for their loads.
   *
   * @param index the page
   * @return the page, or null if it is not read ahead, not landed yet, or failed
   */
  byte[] peek(long index) {
    CompletableFuture<byte[]> f = ready.get(index);
    if (f == null || !f.isDone() || f.isCompletedExceptionally()) {
      return null;
    }
    return f.getNow(null);
  }

  /**
   * @return the highest page index queued so far, or -1
   */
  long queuedThrough() {
    return queuedThrough;
  }

  /**
   * Queues a page, if the JVM's budget allows.
   *
   * @param index the page
   * @param bytes its size
   * @return false when the budget is spent (nothing queued)
   */
  boolean queue(long index, int bytes) {
    if (!background.reserve(bytes)) {
      counters.prefetchSkipped();
      return false;
    }
    CompletableFuture<byte[]> f = new CompletableFuture<>();
    ready.put(index, f);
    pending.put(index, f);
    sizes.put(index, bytes);
    queue.add(index);
    queuedThrough = index;
    return true;
  }

  /** Starts loading what is queued, unless a load of this stream runs already. */
  void start() {
    if (!queue.isEmpty() && running.compareAndSet(false, true)) {
      background.execute(this::run);
    }
  }

  private void run() {
    try {
      Long i;
      while (!closed && (i = queue.poll()) != null) {
        long index = i;
        CompletableFuture<byte[]> f = pending.remove(index);
        boolean loaded = false;
        try {
          byte[] page = loader.load(index);
          loaded = f != null && f.complete(page);
        } catch (IOException | RuntimeException e) {
          if (f != null) {
            f.completeExceptionally(e);
          }
        } catch (Error e) {
          // the reader waiting for this page must not wait forever (an OutOfMemoryError here
          // hung 32 readers of a load test); it reads the page itself, and the error goes on
          if (f != null) {
            f.completeExceptionally(e);
          }
          throw e;
        } finally {
          if (!loaded || closed) {
            release(index); // nothing held for the reader (failed, or the stream closed)
          }
        }
      }
    } finally {
      running.set(false);
      if (!closed) {
        start();
      }
    }
  }

  /** Gives back the budget a page holds, once: whoever removes its entry. */
  private void release(long index) {
    Integer size = sizes.remove(index);
    if (size != null) {
      background.unreserve(size);
    }
  }

  /**
   * Cancels what is queued and gives back the budget of every page not taken; pages read ahead and
   * never taken are counted as wasted.
   */
  void close() {
    closed = true;
    for (CompletableFuture<byte[]> f : ready.values()) {
      f.cancel(false);
      counters.prefetchWasted();
    }
    ready.clear();
    queue.clear();
    for (CompletableFuture<byte[]> f : pending.values()) {
      f.cancel(false);
    }
    pending.clear();
    for (Long i : sizes.keySet()) {
      release(i);
    }
  }
}
