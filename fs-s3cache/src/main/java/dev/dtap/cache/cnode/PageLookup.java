package dev.dtap.cache.cnode;

/** What a lookup found. Immutable. */
public final class PageLookup {
  private static final PageLookup MISS = new PageLookup(null, null, -1);
  private final PageChannel channel;
  private final byte[] data;
  private final long lease;

  private PageLookup(PageChannel channel, byte[] data, long lease) {
    this.channel = channel;
    this.data = data;
    this.lease = lease;
  }

  static PageLookup hit(PageChannel channel) {
    return new PageLookup(channel, null, -1);
  }

  static PageLookup bytes(byte[] data) {
    return new PageLookup(null, data, -1);
  }

  static PageLookup lease(long lease) {
    return new PageLookup(null, null, lease);
  }

  static PageLookup miss() {
    return MISS;
  }

  /**
   * @return the open page file of a short-circuit hit, or null
   */
  public PageChannel channel() {
    return channel;
  }

  /**
   * @return the page's bytes of a hit over the socket, or null
   */
  public byte[] data() {
    return data;
  }

  /**
   * @return the lease to fill the page under, or -1
   */
  public long lease() {
    return lease;
  }

  /**
   * @return whether the service had the page
   */
  public boolean isHit() {
    return channel != null || data != null;
  }
}
