package dev.dtap.cache.disk;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** One cache directory as it is on disk. Immutable. */
public final class CacheDirectory {
  private final Path path;
  private final long pages;
  private final long bytes;
  private final long quotaBytes;
  private final long usableBytes;
  private final String problem;

  /**
   * @param path the directory
   * @param pages page files in it
   * @param bytes their bytes
   * @param quotaBytes the bytes of pages it may hold
   * @param usableBytes free bytes on its filesystem
   * @param problem what is wrong with it, or null
   */
  public CacheDirectory(
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

  /**
   * Looks at one cache directory as it is on disk now, making it (0700) when it is missing, as the
   * cache would on its first scan.
   *
   * @param settings the quota
   * @param dir one of the directories
   * @return what it holds and what is wrong with it
   */
  public static CacheDirectory inspect(DiskSettings settings, Path dir) {
    if (!Files.isDirectory(dir)) {
      if (Files.exists(dir)) {
        return new CacheDirectory(dir, 0, 0, 0, 0, "is not a directory");
      }
      try {
        PrivateFiles.createDirectory(dir);
      } catch (IOException e) {
        return new CacheDirectory(
            dir,
            0,
            0,
            0,
            0,
            "does not exist and cannot be made (" + e.getClass().getSimpleName() + ")");
      }
    }
    long pages = 0;
    long bytes = 0;
    String problem = Files.isWritable(dir) ? null : "is not writable by this user";
    try (DirectoryStream<Path> subdirs = Files.newDirectoryStream(dir)) {
      for (Path sub : subdirs) {
        if (!Files.isDirectory(sub)) {
          continue;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(sub)) {
          for (Path f : files) {
            if (PageKey.parse(f.getFileName().toString()) != null) {
              pages++;
              bytes += sizeOrZero(f);
            }
          }
        }
      }
      long quota = settings.quotaOf(dir);
      long usable = Files.getFileStore(dir).getUsableSpace();
      return new CacheDirectory(dir, pages, bytes, quota, usable, problem);
    } catch (IOException e) {
      return new CacheDirectory(
          dir, pages, bytes, 0, 0, "cannot be read: " + e.getClass().getSimpleName());
    }
  }

  private static long sizeOrZero(Path f) {
    try {
      return Files.size(f);
    } catch (IOException e) {
      return 0; // evicted while we looked
    }
  }
}
