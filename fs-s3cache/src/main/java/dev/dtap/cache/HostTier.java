package dev.dtap.cache;

import dev.dtap.cache.disk.CacheDirectory;
import dev.dtap.cache.disk.PageKey;
import dev.dtap.cache.disk.Sightings;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The pages this host keeps beyond one JVM's memory: the cache directories written by this JVM
 * ({@link LocalHostTier}), or the host's cache service, shared by every JVM of the host ({@link
 * CnodeHostTier}). A host tier fails open: a fault of its own is absorbed (counted, logged once)
 * and reads as a miss; only the loader's (the backend's) failures reach the caller.
 *
 * <p>Implementations are thread-safe.
 */
interface HostTier {
  /** How long {@link #close()} waits for queued writes or pages being handed over. */
  int CLOSE_DRAIN_SECONDS = 10;

  /**
   * Whether other processes fill this tier too (the host's cache service): a page this process
   * fills is then one of many it does not read in order, so it is read as its own range, not
   * through the reader's sequential stream, whose backend may read ahead into pages others fill.
   *
   * @return true for a tier shared between processes
   */
  default boolean shared() {
    return false;
  }

  /**
   * A whole page, if the host has it.
   *
   * @param key the page
   * @param stream the reader's counters, credited with a hit
   * @return the page, or null on a miss. Never throws.
   */
  byte[] read(PageKey key, CacheCounters stream);

  /**
   * Part of a page, if the host has it, without reading the rest.
   *
   * @return bytes copied ({@code len}), or -1 on a miss. Never throws.
   */
  int read(PageKey key, int offset, byte[] dst, int dstOff, int len, CacheCounters stream);

  /**
   * Loads a page this JVM does not hold: the host's copy if it has one, else the loader's (the
   * backend's), which the host then keeps if {@code keep}. With a cache service, JVMs missing one
   * page at once cause one backend read.
   *
   * @param key the page
   * @param owner the host that owns the page's block (locality), or null when unknown or this one
   * @param loader reads the page from the backend
   * @param keep whether the host should keep a page it had to load
   * @param stream the reader's counters
   * @return the page
   * @throws IOException if the loader fails
   */
  byte[] load(
      PageKey key, String owner, PageStore.Loader loader, boolean keep, CacheCounters stream)
      throws IOException;

  /**
   * Keeps a page loaded elsewhere (a vectored read's span), in the background.
   *
   * @param key the page
   * @param data its bytes; not modified afterwards
   */
  void keep(PageKey key, byte[] data);

  /**
   * @return whether the page is known to be on this host (a hint: never asks far)
   */
  boolean contains(PageKey key);

  /**
   * @return the bytes the page takes on the host's disk, or -1 when it is not there
   * @throws IOException if the host cannot be asked
   */
  long sizeOnHost(PageKey key) throws IOException;

  /**
   * Drops a page from the host.
   *
   * @throws IOException if the host cannot be asked
   */
  void forget(PageKey key) throws IOException;

  /**
   * @return whether the host's pages fill under 90% of its quota (admission caches a first read
   *     only then)
   */
  boolean hasRoom();

  /**
   * @return the pages lone readers of the host have met, which admission caches when met again:
   *     shared by the JVMs that cache in the same directories, so that a job's next task or the job
   *     run again finds what this one met
   */
  Sightings sightings();

  /**
   * @return the host's cache directories as they are now
   */
  List<CacheDirectory> directories();

  /**
   * @return the host-wide counters and gauges of the host's cache service, empty when this JVM
   *     caches on its own (its counters are in the filesystem's statistics)
   */
  default Map<String, Long> serviceStatistics() {
    return Collections.emptyMap();
  }

  /**
   * Waits until the pages handed to the host so far are stored.
   *
   * @throws InterruptedException if interrupted
   */
  void flush() throws InterruptedException;

  /**
   * Drops every page on the host (tests and benchmarks: a cold cache).
   *
   * @throws IOException if pages cannot be deleted
   * @throws InterruptedException if interrupted waiting for queued writes
   */
  void clear() throws IOException, InterruptedException;

  /**
   * Stops background work; queued writes are finished first, within {@link #CLOSE_DRAIN_SECONDS}: a
   * task JVM closes its filesystems as it exits, and the pages it read are worth keeping.
   */
  void close();
}
