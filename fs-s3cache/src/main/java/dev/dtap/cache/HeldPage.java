package dev.dtap.cache;

/**
 * A page a stream holds and its index, published together, so that a reader on another thread never
 * pairs one page's index with another page's bytes.
 *
 * <p>Immutable.
 */
final class HeldPage {
  static final HeldPage NONE = new HeldPage(-1, null);

  final long index;
  final byte[] bytes;

  HeldPage(long index, byte[] bytes) {
    this.index = index;
    this.bytes = bytes;
  }
}
