package dev.dtap.cache;

import org.apache.hadoop.fs.Path;

/** The cached pages of one file version on this host. Immutable. */
public final class CachedFile {
  private final Path path;
  private final long length;
  private final long pages;
  private final long pagesOnDisk;
  private final long pagesInMemory;
  private final long bytesOnDisk;

  CachedFile(
      Path path, long length, long pages, long pagesOnDisk, long pagesInMemory, long bytesOnDisk) {
    this.path = path;
    this.length = length;
    this.pages = pages;
    this.pagesOnDisk = pagesOnDisk;
    this.pagesInMemory = pagesInMemory;
    this.bytesOnDisk = bytesOnDisk;
  }

  /**
   * @return the dtap path
   */
  public Path path() {
    return path;
  }

  /**
   * @return the file's length
   */
  public long length() {
    return length;
  }

  /**
   * @return how many pages the file has
   */
  public long pages() {
    return pages;
  }

  /**
   * @return pages in the cache directories (written by any JVM)
   */
  public long pagesOnDisk() {
    return pagesOnDisk;
  }

  /**
   * @return pages in this JVM's memory tier
   */
  public long pagesInMemory() {
    return pagesInMemory;
  }

  /**
   * @return bytes the file's page files take on disk, headers included
   */
  public long bytesOnDisk() {
    return bytesOnDisk;
  }
}
