package dev.dtap.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;

/**
 * The backend stream a reader's misses go through, opened on first use with the caller's read
 * options and reused, so that a sequential pass is one backend read as far as the backend allows.
 * The reader and its readahead share it.
 *
 * <p>Thread-safe: one read at a time.
 */
final class DemandStream {
  private static final CompletableFuture<Void> NONE = CompletableFuture.completedFuture(null);

  private final BackendSource source;
  private FSDataInputStream in;

  /** Completes when every vectored range started on {@link #in} has completed, either way. */
  private CompletableFuture<Void> inFlight = NONE;

  DemandStream(BackendSource source) {
    this.source = source;
  }

  /**
   * Reads exactly {@code len} bytes at {@code position}.
   *
   * @throws IOException on backend failure, or EOF before the range ends
   */
  synchronized void readFully(long position, byte[] buf, int off, int len) throws IOException {
    if (in == null) {
      in = source.open(null);
    }
    BackendSource.readFully(in, position, buf, off, len);
  }

  /**
   * Starts a vectored read on the backend stream. The backend completes the ranges, possibly after
   * this returns; closing this stream before they land may fail them.
   *
   * @throws IOException if the backend refuses the read
   */
  synchronized void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate)
      throws IOException {
    if (in == null) {
      in = source.open(null);
    }
    in.readVectored(ranges, allocate);
    CompletableFuture<?>[] started = new CompletableFuture<?>[ranges.size() + 1];
    for (int i = 0; i < ranges.size(); i++) {
      started[i] = ranges.get(i).getData();
    }
    started[ranges.size()] = inFlight;
    inFlight = CompletableFuture.allOf(started);
  }

  /**
   * Lets go of the backend stream without failing reads in flight: the next read opens another, and
   * this one is closed once the vectored ranges started on it have completed. That is what {@code
   * unbuffer()} promises: buffers and connections released, every read already asked for still
   * answered.
   */
  synchronized void release() {
    if (in != null) {
      FSDataInputStream detached = in;
      in = null;
      CompletableFuture<Void> pending = inFlight;
      inFlight = NONE;
      pending.whenComplete((v, failure) -> closeQuietly(detached));
    }
  }

  /** Closes the backend stream now, failing any vectored ranges still in flight on it. */
  synchronized void close() {
    if (in != null) {
      closeQuietly(in);
      in = null;
      inFlight = NONE;
    }
  }

  private static void closeQuietly(FSDataInputStream stream) {
    try {
      stream.close();
    } catch (IOException e) {
      // a read stream; nothing to lose
    }
  }
}
