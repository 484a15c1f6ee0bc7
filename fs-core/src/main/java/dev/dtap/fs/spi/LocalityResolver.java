package dev.dtap.fs.spi;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;

/**
 * Answers {@code getFileBlockLocations} for one tap.
 *
 * <p>Thread-safe. Called on the caller's thread during split planning: an implementation may wait
 * for what it needs from the network only within a bound it declares, and {@link #owner} never
 * waits.
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
   * The first host that owns the block holding a byte, for a read path that wants to know without
   * waiting: unlike {@link #locate}, never waits for the network and never asks the backend.
   *
   * @param backendStatus the backend's status of the file
   * @param offset a byte of the file
   * @return the owning host, or null when no placement is known yet
   */
  String owner(FileStatus backendStatus, long offset);

  /**
   * The block size dtap reports for a file, so that split sizes match the resolver's blocks.
   *
   * @param backendStatus the backend's status
   * @return the block size to report in the dtap status
   */
  long blockSize(FileStatus backendStatus);
}
