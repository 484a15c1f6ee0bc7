package dev.dtap.cache;

/**
 * Which host owns the block a page falls in (the locality placement), so that a miss can ask that
 * host's cache service before the backend. Implementations are thread-safe and answer locally.
 */
interface PageOwners {
  /** No placement known: every miss goes to the backend. */
  PageOwners NONE = offset -> null;

  /**
   * @param offset a file offset
   * @return the owning host of the block holding it, or null when unknown
   */
  String ownerOf(long offset);
}
