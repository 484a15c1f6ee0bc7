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

  /** The budget each queued page holds, given back when it is loaded or dropped. */
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
        Integer size = sizes.remove(index);
        try {
          byte[] page = loader.load(index);
          if (f != null) {
            f.complete(page);
          }
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
          background.unreserve(size == null ? 0 : size);
        }
      }
    } finally {
      running.set(false);
      if (!closed) {
        start();
      }
    }
  }

  /** Cancels what is queued; pages read ahead and never taken are counted as wasted. */
  void close() {
    closed = true;
    for (CompletableFuture<byte[]> f : ready.values()) {
      f.cancel(false);
      counters.prefetchWasted();
    }
    ready.clear();
    Long i;
    while ((i = queue.poll()) != null) {
      Integer size = sizes.remove(i);
      background.unreserve(size == null ? 0 : size);
    }
    for (CompletableFuture<byte[]> f : pending.values()) {
      f.cancel(false);
    }
    pending.clear();
  }
}
