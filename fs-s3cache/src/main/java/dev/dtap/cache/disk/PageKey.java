package dev.dtap.cache.disk;

/**
 * The identity of one cached page: a 128-bit hash of (tap, backend path, object identity) plus the
 * page index. Two different object versions never share a key, so a changed object can never be
 * served from the old version's pages. Immutable.
 */
public final class PageKey {
  private final long hi;
  private final long lo;

  public PageKey(long hi, long lo) {
    this.hi = hi;
    this.lo = lo;
  }

  public long hi() {
    return hi;
  }

  public long lo() {
    return lo;
  }

  /** The file name of the page: 32 hex digits. */
  public String fileName() {
    return hex(hi) + hex(lo);
  }

  private static String hex(long v) {
    String s = Long.toHexString(v);
    return "0000000000000000".substring(s.length()) + s;
  }

  /**
   * Parses a page file name.
   *
   * @param name 32 hex digits
   * @return the key, or null when the name is not a page name
   */
  public static PageKey parse(String name) {
    if (name.length() != 32) {
      return null;
    }
    try {
      return new PageKey(
          Long.parseUnsignedLong(name.substring(0, 16), 16),
          Long.parseUnsignedLong(name.substring(16), 16));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof PageKey)) {
      return false;
    }
    PageKey k = (PageKey) o;
    return hi == k.hi && lo == k.lo;
  }

  @Override
  public int hashCode() {
    long h = hi ^ (lo * 0x9e3779b97f4a7c15L);
    return (int) (h ^ (h >>> 32));
  }

  @Override
  public String toString() {
    return fileName();
  }
}
