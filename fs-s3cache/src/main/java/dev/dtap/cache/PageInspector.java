package dev.dtap.cache;

import dev.dtap.fs.spi.TapContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The {@link TapCacheAdmin} of one tap: answers from the page files on disk (the truth shared by
 * every JVM on the host) and this JVM's memory tier. Thread-safe.
 */
final class PageInspector implements TapCacheAdmin {
  private final TapContext tap;
  private final PageStore store;

  PageInspector(TapContext tap, PageStore store) {
    this.tap = tap;
    this.store = store;
  }

  @Override
  public CachedFile inspect(Path dtapPath) throws IOException {
    FileStatus status = fileStatus(dtapPath);
    return inspect(dtapPath, status, identity(status));
  }

  private FileIdentity identity(FileStatus status) {
    return FileIdentity.of(tap.config().name(), status, store.config().pageSize());
  }

  private CachedFile inspect(Path dtapPath, FileStatus status, FileIdentity id) throws IOException {
    long pages = pageCount(status.getLen());
    long onDisk = 0;
    long inMemory = 0;
    long bytes = 0;
    for (long i = 0; i < pages; i++) {
      PageKey key = id.page(i);
      try {
        bytes += Files.size(store.disk().pathOf(key));
        onDisk++;
      } catch (NoSuchFileException e) {
        // not cached on this host
      }
      if (store.inMemory(key)) {
        inMemory++;
      }
    }
    return new CachedFile(dtapPath, status.getLen(), pages, onDisk, inMemory, bytes);
  }

  @Override
  public CachedFile evict(Path dtapPath) throws IOException {
    awaitWritesUninterruptibly();
    FileStatus status = fileStatus(dtapPath);
    FileIdentity id = identity(status);
    CachedFile before = inspect(dtapPath, status, id);
    for (long i = 0; i < before.pages(); i++) {
      store.forget(id.page(i));
    }
    return before;
  }

  private void awaitWritesUninterruptibly() throws InterruptedIOException {
    try {
      store.flush();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for cache writes");
    }
  }

  @Override
  public List<CacheDirectory> directories() {
    List<CacheDirectory> result = new ArrayList<>();
    for (java.nio.file.Path dir : store.config().dirs()) {
      result.add(directory(dir));
    }
    return result;
  }

  private CacheDirectory directory(java.nio.file.Path dir) {
    if (!Files.isDirectory(dir)) {
      if (Files.exists(dir)) {
        return new CacheDirectory(dir, 0, 0, 0, 0, "is not a directory");
      }
      try {
        // as the store would on its first scan, which may not have run yet
        DiskTier.createPrivateDirectory(dir);
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
    try (DirectoryStream<java.nio.file.Path> subdirs = Files.newDirectoryStream(dir)) {
      for (java.nio.file.Path sub : subdirs) {
        if (!Files.isDirectory(sub)) {
          continue;
        }
        try (DirectoryStream<java.nio.file.Path> files = Files.newDirectoryStream(sub)) {
          for (java.nio.file.Path f : files) {
            if (PageKey.parse(f.getFileName().toString()) != null) {
              pages++;
              bytes += sizeOrZero(f);
            }
          }
        }
      }
      long quota = DiskTier.quotaOf(store.config(), dir);
      long usable = Files.getFileStore(dir).getUsableSpace();
      return new CacheDirectory(dir, pages, bytes, quota, usable, problem);
    } catch (IOException e) {
      return new CacheDirectory(
          dir, pages, bytes, 0, 0, "cannot be read: " + e.getClass().getSimpleName());
    }
  }

  private static long sizeOrZero(java.nio.file.Path f) {
    try {
      return Files.size(f);
    } catch (IOException e) {
      return 0; // evicted while we looked
    }
  }

  @Override
  public void awaitWrites() throws InterruptedException {
    store.flush();
  }

  @Override
  public int pageSize() {
    return store.config().pageSize();
  }

  private long pageCount(long length) {
    int size = store.config().pageSize();
    return (length + size - 1) / size;
  }

  private FileStatus fileStatus(Path dtapPath) throws IOException {
    FileStatus status;
    try {
      status = tap.backend().getFileStatus(tap.toBackend(dtapPath));
    } catch (FileNotFoundException e) {
      // the backend's message names the backend path: name the dtap path only
      throw new FileNotFoundException("No such file: " + dtapPath);
    }
    if (status.isDirectory()) {
      throw new FileNotFoundException(dtapPath + " is a directory, not a file");
    }
    return status;
  }
}
