package dev.dtap.cache;

import dev.dtap.cache.disk.PageKey;
import dev.dtap.fs.spi.TapContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.function.Function;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * What an operator's tool sees of one file's pages on this host: asked of the host tier (the page
 * files every JVM of the host wrote, or the host's cache service) and this JVM's memory tier.
 * Thread-safe.
 */
final class PageInspector {
  private final TapContext tap;
  private final PageStore store;
  private final Function<FileStatus, FileIdentity> identities;

  PageInspector(TapContext tap, PageStore store, Function<FileStatus, FileIdentity> identities) {
    this.tap = tap;
    this.store = store;
    this.identities = identities;
  }

  CachedFile inspect(Path dtapPath) throws IOException {
    FileStatus status = fileStatus(dtapPath);
    return inspect(dtapPath, status, identities.apply(status));
  }

  private CachedFile inspect(Path dtapPath, FileStatus status, FileIdentity id) throws IOException {
    long pages = pageCount(status.getLen());
    long onDisk = 0;
    long inMemory = 0;
    long bytes = 0;
    for (long i = 0; i < pages; i++) {
      PageKey key = id.page(i);
      long size = store.host().sizeOnHost(key);
      if (size >= 0) {
        bytes += size;
        onDisk++;
      }
      if (store.inMemory(key)) {
        inMemory++;
      }
    }
    return new CachedFile(dtapPath, status.getLen(), pages, onDisk, inMemory, bytes);
  }

  CachedFile evict(Path dtapPath) throws IOException {
    try {
      store.flush();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for cache writes");
    }
    FileStatus status = fileStatus(dtapPath);
    FileIdentity id = identities.apply(status);
    CachedFile before = inspect(dtapPath, status, id);
    for (long i = 0; i < before.pages(); i++) {
      store.forget(id.page(i));
    }
    return before;
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
