package dev.dtap.locality;

/**
 * The hashes behind placement: 64-bit FNV-1a over the characters of a string, finished with a
 * strong avalanche mix, so that similar paths and host names spread over the whole ring. Allocation
 * free; stable across JVMs, versions and platforms, because every node must compute the same
 * placement on its own.
 */
final class PlacementHash {
  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;
  private static final long GOLDEN = 0x9e3779b97f4a7c15L;

  private PlacementHash() {}

  /** FNV-1a over UTF-16 code units (two bytes each), continuing from {@code h}. */
  static long fnv(long h, String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      h ^= c & 0xff;
      h *= FNV_PRIME;
      h ^= c >>> 8;
      h *= FNV_PRIME;
    }
    return h;
  }

  /** The splitmix64 finaliser: every input bit affects every output bit. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /**
   * The placement key of a block.
   *
   * @param tap the tap name
   * @param path the file's path within the tap's backend
   * @param block the block index
   * @return the key's position on the ring
   */
  static long blockKey(String tap, String path, long block) {
    long h = fnv(FNV_OFFSET, tap);
    h ^= '/';
    h *= FNV_PRIME;
    h = fnv(h, path);
    return mix(h ^ mix(block + GOLDEN));
  }

  /** The hash of a file's path, to which {@link #blockKey(long, long)} adds the block index. */
  static long pathKey(String tap, String path) {
    long h = fnv(FNV_OFFSET, tap);
    h ^= '/';
    h *= FNV_PRIME;
    return fnv(h, path);
  }

  /** The placement key of block {@code block} of a path hashed with {@link #pathKey}. */
  static long blockKey(long pathKey, long block) {
    return mix(pathKey ^ mix(block + GOLDEN));
  }

  /**
   * A host's point on the ring.
   *
   * @param host the host's canonical name
   * @param vnode the point's index, 0 to vnodes-1
   * @return the position
   */
  static long point(String host, int vnode) {
    return mix(fnv(FNV_OFFSET, host) + (vnode + 1L) * GOLDEN);
  }
}
