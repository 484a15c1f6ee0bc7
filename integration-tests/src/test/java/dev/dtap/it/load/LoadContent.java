package dev.dtap.it.load;

/**
 * The content of load-test object {@code obj}: byte {@code pos} is a fixed function of the object
 * and the position, so a reader checks any range without holding the object.
 */
final class LoadContent {
  private LoadContent() {}

  static byte at(int obj, long pos) {
    long x = (obj * 0x9E3779B97F4A7C15L) ^ (pos >>> 3) * 0xBF58476D1CE4E5B9L;
    x ^= x >>> 31;
    x *= 0x94D049BB133111EBL;
    x ^= x >>> 29;
    return (byte) (x >>> ((pos & 7) * 8));
  }

  static void fill(int obj, long from, byte[] buf, int len) {
    for (int i = 0; i < len; i++) {
      buf[i] = at(obj, from + i);
    }
  }

  static boolean matches(int obj, long from, byte[] buf, int len) {
    for (int i = 0; i < len; i++) {
      if (buf[i] != at(obj, from + i)) {
        return false;
      }
    }
    return true;
  }
}
