package dev.dtap.cache;

import java.nio.file.Path;

/** One cache directory as it is on disk. Immutable. */
public final class CacheDirectory {
  private final Path path;
  private final long pages;
  private final long bytes;
  private final long quotaBytes;
  private final long usableBytes;
  private final String problem;

  CacheDirectory(
      Path path, long pages, long bytes, long quotaBytes, long usableBytes, String problem) {
    this.path = path;
    this.pages = pages;
    this.bytes = bytes;
    this.quotaBytes = quotaBytes;
    this.usableBytes = usableBytes;
    this.problem = problem;
  }

  /**
   * @return the directory
   */
  public Path path() {
    return path;
  }

  /**
   * @return page files in it
   */
  public long pages() {
    return pages;
  }

  /**
   * @return bytes of its page files
   */
  public long bytes() {
    return bytes;
  }

  /**
   * @return how many bytes of pages it may hold
   */
  public long quotaBytes() {
    return quotaBytes;
  }

  /**
   * @return free bytes on its filesystem that this user may use
   */
  public long usableBytes() {
    return usableBytes;
  }

  /**
   * @return what is wrong with it (missing and cannot be made, not a directory, not writable), or
   *     null when pages can be written
   */
  public String problem() {
    return problem;
  }
}
