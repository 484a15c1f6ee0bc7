package dev.dtap.fs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.PositionedReadable;

/**
 * A vectored range that failed is read once more with the stream's positioned {@code readFully}.
 * S3A reads each vectored range with one GET and gives up on a body cut short (a connection reset,
 * an answer ended early), where its positioned read retries with the tap's retry policy; so a
 * vectored read through a tap survives what a positioned read survives. A missing file and an
 * interrupt are not retried. The retry runs on the thread that completes the failed range.
 *
 * <p>Thread-safe, as the stream's positioned reads are.
 */
final class RangeRetry {
  private RangeRetry() {}

  /**
   * @param data the range's result from the stream's own vectored read
   * @param range the range
   * @param in the stream, for the retry
   * @param allocate the caller's buffer allocator
   * @return the range's result, from the retry where the first read failed
   */
  static CompletableFuture<ByteBuffer> retryingOnce(
      CompletableFuture<ByteBuffer> data,
      FileRange range,
      PositionedReadable in,
      IntFunction<ByteBuffer> allocate) {
    return data.handle(
            (buf, failure) -> {
              if (failure == null) {
                return CompletableFuture.completedFuture(buf);
              }
              Throwable cause = unwrap(failure);
              if (!worthRetrying(cause)) {
                return CompletableFuture.<ByteBuffer>failedFuture(cause);
              }
              return readAgain(range, in, allocate, cause);
            })
        .thenCompose(f -> f);
  }

  private static CompletableFuture<ByteBuffer> readAgain(
      FileRange range, PositionedReadable in, IntFunction<ByteBuffer> allocate, Throwable first) {
    byte[] bytes = new byte[range.getLength()];
    try {
      in.readFully(range.getOffset(), bytes, 0, bytes.length);
    } catch (IOException | RuntimeException again) {
      again.addSuppressed(first);
      return CompletableFuture.failedFuture(again);
    }
    ByteBuffer out = allocate.apply(bytes.length);
    out.put(bytes);
    out.flip();
    return CompletableFuture.completedFuture(out);
  }

  /**
   * @return whether a range's failure may pass on a second read: not for a file that is gone, nor
   *     when the reader was interrupted (a socket timeout, also an {@link InterruptedIOException},
   *     is retried)
   */
  static boolean worthRetrying(Throwable t) {
    return t instanceof IOException
        && !(t instanceof FileNotFoundException)
        && !(t instanceof ClosedByInterruptException)
        && t.getClass() != InterruptedIOException.class;
  }

  private static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
