package dev.dtap.cache.disk;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * One pass over the cache directories: every page file found, with its size and its file time as
 * last use, in a fresh index; temporary files older than ten minutes (left by a writer that died)
 * are deleted. Not thread-safe; one scan, then read the results.
 */
final class PageScanner {
  /** Temporary files older than this are leftovers of a crashed writer. */
  private static final long STALE_TEMP_MS = 10 * 60_000L;

  private final List<Path> dirs;
  private final ToIntFunction<PageKey> dirOf;
  private final DiskIndex index = new DiskIndex();
  private final long[] bytes;

  PageScanner(List<Path> dirs, ToIntFunction<PageKey> dirOf) {
    this.dirs = dirs;
    this.dirOf = dirOf;
    this.bytes = new long[dirs.size()];
  }

  void scan() throws IOException {
    long now = System.currentTimeMillis();
    for (int d = 0; d < dirs.size(); d++) {
      if (!Files.isDirectory(dirs.get(d))) {
        continue;
      }
      try (DirectoryStream<Path> subdirs = Files.newDirectoryStream(dirs.get(d))) {
        for (Path sub : subdirs) {
          if (Files.isDirectory(sub)) {
            scanSubdirectory(sub, d, now);
          }
        }
      }
    }
  }

  private void scanSubdirectory(Path sub, int d, long now) throws IOException {
    try (DirectoryStream<Path> pages = Files.newDirectoryStream(sub)) {
      for (Path page : pages) {
        String name = page.getFileName().toString();
        BasicFileAttributes attrs;
        try {
          attrs = Files.readAttributes(page, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
          continue;
        }
        if (name.startsWith(".")) {
          if (name.endsWith(".tmp") && now - attrs.lastModifiedTime().toMillis() > STALE_TEMP_MS) {
            Files.deleteIfExists(page);
          }
          continue;
        }
        PageKey key = PageKey.parse(name);
        if (key == null || dirOf.applyAsInt(key) != d) {
          continue;
        }
        long age = (now - attrs.lastModifiedTime().toMillis()) / 1000;
        index.put(
            key, (int) attrs.size(), d, (int) Math.max(Integer.MIN_VALUE + 1L, index.now() - age));
        bytes[d] += attrs.size();
      }
    }
  }

  DiskIndex index() {
    return index;
  }

  long[] bytesPerDirectory() {
    return bytes;
  }
}
