package dev.dtap.cache.disk;

/**
 * What admission remembers of the pages lone readers have met: a page met for the first time
 * streams through uncached, and is cached when met again. Only hints: a lost sighting admits a page
 * one meeting late, a false one a meeting early.
 *
 * <p>Implementations are thread-safe.
 */
public interface Sightings {
  /**
   * @param key a page
   * @return true if the page was met before; otherwise records it and returns false
   */
  boolean seenBefore(PageKey key);

  /**
   * @param key a page
   * @return whether the page was met before, without recording it
   */
  boolean contains(PageKey key);

  /** Forgets every sighting. */
  void clear();
}
