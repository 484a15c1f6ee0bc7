package dev.dtap.cache;

import dev.dtap.cache.disk.PageKey;
import dev.dtap.cache.disk.Sightings;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Which pages a read caches (see {@link CacheKeys#SCAN_ADMISSION}): pages of a file several streams
 * of the JVM read at once are cached at once, so that they load once for all; a page one stream
 * alone meets is cached on its first read when a sequential scan meets it while the cache has room
 * (or always, with {@code first-read}), else only when met again, here or in another JVM of the
 * host ({@link HostTier#sightings()}), so that one-off scans neither pay for filling the cache nor
 * push out what is re-read.
 *
 * <p>Thread-safe.
 */
final class Admission {
  private final CacheConfig.ScanAdmission mode;
  private final BooleanSupplier room;
  private final Sightings sightings;

  /** Open streams per file version, to tell a lone scan from readers sharing a file. */
  private final ConcurrentHashMap<PageKey, AtomicInteger> openStreams = new ConcurrentHashMap<>();

  /**
   * @param mode the configured admission
   * @param room whether the tier pages settle in has room (under 90% of its quota)
   * @param sightings the pages lone readers met, in this JVM or on the host
   */
  Admission(CacheConfig.ScanAdmission mode, BooleanSupplier room, Sightings sightings) {
    this.mode = mode;
    this.room = room;
    this.sightings = sightings;
  }

  void streamOpened(FileIdentity id) {
    openStreams.computeIfAbsent(id.fileKey(), k -> new AtomicInteger()).incrementAndGet();
  }

  void streamClosed(FileIdentity id) {
    openStreams.computeIfPresent(id.fileKey(), (k, n) -> n.decrementAndGet() <= 0 ? null : n);
  }

  /**
   * @return whether only one stream of this JVM reads this file version now
   */
  boolean isLoneScan(FileIdentity id) {
    AtomicInteger n = openStreams.get(id.fileKey());
    return n == null || n.get() <= 1;
  }

  /**
   * Admission of a page a lone stream meets: true to cache it now; otherwise it is remembered (and
   * cached when met again).
   *
   * @param key the page
   * @param random whether the stream reads at random
   */
  boolean admitScannedPage(PageKey key, boolean random) {
    return firstReadAdmits(random) || sightings.seenBefore(key);
  }

  /**
   * @return whether a lone sequential scan would cache this page now (room, or met before)
   */
  boolean scanWouldCache(PageKey key) {
    return firstReadAdmits(false) || sightings.contains(key);
  }

  private boolean firstReadAdmits(boolean random) {
    switch (mode) {
      case FIRST_READ:
        return true;
      case SECOND_READ:
        return false;
      default:
        return !random && room.getAsBoolean();
    }
  }

  void clear() {
    sightings.clear();
  }
}
