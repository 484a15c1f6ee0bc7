package dev.dtap.fs.spi;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;

/**
 * Answers {@code getFileBlockLocations} for one tap.
 *
 * <p>Thread-safe. Called on the caller's thread during split planning, so implementations must not
 * block on the network.
 */
public interface LocalityResolver extends Closeable {
  /**
   * The block locations of a byte range of a file, following Hadoop's contract: the returned blocks
   * cover the range, offsets and lengths refer to the file, and a zero-length file yields one
   * location of length zero.
   *
   * @param backendStatus the backend's status of the file (never a directory)
   * @param start the first byte of the range
   * @param len the length of the range
   * @return the locations, never null
   * @throws IOException if locations cannot be computed
   */
  BlockLocation[] locate(FileStatus backendStatus, long start, long len) throws IOException;

  /**
   * The block size dtap reports for a file, so that split sizes match the resolver's blocks.
   *
   * @param backendStatus the backend's status
   * @return the block size to report in the dtap status
   */
  long blockSize(FileStatus backendStatus);
}
