package dev.dtap.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
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
  private final BackendSource source;
  private FSDataInputStream in;

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
  }

  /** Closes the backend stream; the next read opens another. */
  synchronized void close() {
    if (in != null) {
      try {
        in.close();
      } catch (IOException e) {
        // a read stream; nothing to lose
      }
      in = null;
    }
  }
}
