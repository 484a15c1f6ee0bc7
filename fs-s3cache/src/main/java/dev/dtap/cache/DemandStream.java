package dev.dtap.cache;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;

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
