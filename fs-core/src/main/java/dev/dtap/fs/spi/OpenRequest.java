package dev.dtap.fs.spi;

import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/** One request to open a file through a {@link ReadCache}. Immutable. */
public final class OpenRequest {
  private final Path dtapPath;
  private final Path backendPath;
  private final FileStatus backendStatus;
  private final int bufferSize;
  private final Configuration options;

  /**
   * Describes an open.
   *
   * @param dtapPath the path the caller asked for
   * @param backendPath the same file on the backend
   * @param backendStatus the backend's status of the file if the caller supplied one, else null;
   *     when present the cache must not probe the backend for it
   * @param bufferSize the caller's buffer size hint, 0 for the default
   * @param options {@code openFile()} options (read policy, split range, ...); may be empty
   */
  public OpenRequest(
      Path dtapPath,
      Path backendPath,
      FileStatus backendStatus,
      int bufferSize,
      Configuration options) {
    this.dtapPath = Objects.requireNonNull(dtapPath);
    this.backendPath = Objects.requireNonNull(backendPath);
    this.backendStatus = backendStatus;
    this.bufferSize = bufferSize;
    this.options = options == null ? new Configuration(false) : options;
  }

  /**
   * @return the dtap path, for messages
   */
  public Path dtapPath() {
    return dtapPath;
  }

  /**
   * @return the backend path to read
   */
  public Path backendPath() {
    return backendPath;
  }

  /**
   * @return the backend status supplied by the caller, or null
   */
  public FileStatus backendStatus() {
    return backendStatus;
  }

  /**
   * @return the buffer size hint, 0 for default
   */
  public int bufferSize() {
    return bufferSize;
  }

  /**
   * @return the openFile() options; never null
   */
  public Configuration options() {
    return options;
  }
}
