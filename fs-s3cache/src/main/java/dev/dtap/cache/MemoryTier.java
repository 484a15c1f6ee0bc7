package dev.dtap.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.dtap.cache.disk.PageKey;

/**
 * The JVM's pages in heap: Caffeine weighted by bytes, whose W-TinyLFU admission keeps a scan from
 * flushing hot pages. Size 0 turns it off (every call then misses).
 *
 * <p>Thread-safe.
 */
final class MemoryTier {
  private final Cache<PageKey, byte[]> pages;
  private final long maxBytes;

  MemoryTier(long maxBytes) {
    this.maxBytes = maxBytes;
    this.pages =
        maxBytes == 0
            ? null
            : Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((PageKey k, byte[] v) -> v.length + 64)
                .build();
  }

  /**
   * @return the page, or null
   */
  byte[] get(PageKey key) {
    return pages == null ? null : pages.getIfPresent(key);
  }

  /** Whether a page is held, without counting as an access to it (admission counts those). */
  boolean contains(PageKey key) {
    return pages != null && pages.asMap().containsKey(key);
  }

  void put(PageKey key, byte[] data) {
    if (pages != null) {
      pages.put(key, data);
    }
  }

  void invalidate(PageKey key) {
    if (pages != null) {
      pages.invalidate(key);
    }
  }

  void clear() {
    if (pages != null) {
      pages.invalidateAll();
    }
  }

  /**
   * @return whether the pages held fill under 90% of the tier (false when it is off)
   */
  boolean hasRoom() {
    return maxBytes > 0 && bytes() < maxBytes / 10 * 9;
  }

  /**
   * @return bytes held, with the per-page overhead the weigher counts
   */
  long bytes() {
    return pages == null
        ? 0
        : pages.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
  }
}
