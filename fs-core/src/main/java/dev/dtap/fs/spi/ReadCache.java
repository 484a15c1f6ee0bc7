package dev.dtap.fs.spi;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * Serves reads of one tap, typically from pages cached on the compute host.
 *
 * <p>Thread-safe. A cache must fail open: a fault of the cache itself sends the read to the
 * backend, never to the caller.
 */
public interface ReadCache extends Closeable {
  /**
   * Opens a file for reading.
   *
   * @param request what to open
   * @return a stream over the file's bytes; positions and lengths are the backend file's
   * @throws java.io.FileNotFoundException if the backend file does not exist
   * @throws IOException on backend failures
   */
  FSDataInputStream open(OpenRequest request) throws IOException;
}
