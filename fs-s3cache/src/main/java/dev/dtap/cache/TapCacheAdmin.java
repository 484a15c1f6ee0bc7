package dev.dtap.cache;

import dev.dtap.cache.disk.CacheDirectory;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * What an operator's tool sees of one tap's read cache on this host: which pages of a file are
 * cached, dropping them, and the state of the cache directories. Found through {@code
 * TapExtensions.find(fs, TapCacheAdmin.class)} on a dtap filesystem whose tap has the cache on.
 *
 * <p>The disk is the truth: pages written by other JVMs on the host are seen and evicted too.
 * Implementations are thread-safe.
 */
public interface TapCacheAdmin {
  /**
   * The cached pages of one file's current version.
   *
   * @param dtapPath a file on this tap
   * @return its pages
   * @throws java.io.FileNotFoundException if there is no such file (the message names the dtap
   *     path) or it is a directory
   * @throws IOException if the backend cannot be asked for the file's status
   */
  CachedFile inspect(Path dtapPath) throws IOException;

  /**
   * Drops the cached pages of one file's current version from memory and disk.
   *
   * @param dtapPath a file on this tap
   * @return its pages as they were before
   * @throws java.io.FileNotFoundException if there is no such file or it is a directory
   * @throws IOException if the backend cannot be asked for the status or a page cannot be deleted
   */
  CachedFile evict(Path dtapPath) throws IOException;

  /**
   * The cache directories as they are on disk now.
   *
   * @return one entry per configured directory, in configuration order
   */
  List<CacheDirectory> directories();

  /**
   * Waits until the pages read so far are written to disk, so that a later JVM finds them.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  void awaitWrites() throws InterruptedException;

  /**
   * @return the page size in bytes
   */
  int pageSize();

  /**
   * @return the counters and gauges of the host's cache service (hits, misses, fills, peer reads,
   *     pages, bytes), empty when each JVM caches on its own
   */
  default Map<String, Long> serviceStatistics() {
    return Collections.emptyMap();
  }
}
