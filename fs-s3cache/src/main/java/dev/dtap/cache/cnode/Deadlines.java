package dev.dtap.cache.cnode;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for the service's answers within a deadline, turning every way a wait can end badly into an
 * {@link IOException}: the client's callers treat any of them as "read without the service".
 *
 * <p>Stateless and thread-safe.
 */
final class Deadlines {
  private Deadlines() {}

  /**
   * Waits for a future and, when the time is up, fails it, so that a late completion is seen.
   *
   * @throws CnodeTimeoutException if the time ran out
   * @throws InterruptedIOException if the waiting thread was interrupted (its flag is set again)
   * @throws IOException the future's own failure, or one wrapping a failure that is not one
   */
  static <T> T await(CompletableFuture<T> f, Duration timeout) throws IOException {
    try {
      return waitFor(f, timeout);
    } catch (CnodeTimeoutException e) {
      f.completeExceptionally(e);
      throw e;
    }
  }

  /**
   * Waits for a future without changing it: the caller decides what a timeout does to it.
   *
   * @throws CnodeTimeoutException if the time ran out
   * @throws InterruptedIOException if the waiting thread was interrupted (its flag is set again)
   * @throws IOException the future's own failure, or one wrapping a failure that is not one
   */
  static <T> T waitFor(CompletableFuture<T> f, Duration timeout) throws IOException {
    try {
      return f.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for the cache service");
    } catch (TimeoutException e) {
      throw new CnodeTimeoutException("the cache service did not answer within " + timeout);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      throw c instanceof IOException
          ? (IOException) c
          : new IOException("the cache service failed: " + c, c);
    }
  }

  /** A request the service did not answer in time. */
  static final class CnodeTimeoutException extends IOException {
    private static final long serialVersionUID = 1L;

    CnodeTimeoutException(String message) {
      super(message);
    }
  }
}
