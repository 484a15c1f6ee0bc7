package dev.dtap.commit.store;

import java.io.InputStream;
import java.util.List;

/**
 * The first {@code length} bytes of a list of arrays as one stream, without copying them. Mark and
 * reset work over the whole stream, whatever the read limit, so a client that resends a part can
 * rewind it. Not thread-safe, as streams are not.
 */
final class ArraysInputStream extends InputStream {
  private final List<byte[]> arrays;
  private final long length;
  private long position;
  private long mark;
  private int array;
  private int offset;

  ArraysInputStream(List<byte[]> arrays, long length) {
    this.arrays = arrays;
    this.length = length;
  }

  @Override
  public int read() {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) {
      return 0;
    }
    if (position >= length) {
      return -1;
    }
    int done = 0;
    while (done < len && position < length) {
      byte[] a = arrays.get(array);
      if (offset == a.length) {
        array++;
        offset = 0;
        continue;
      }
      int n = (int) Math.min(Math.min(len - done, a.length - offset), length - position);
      System.arraycopy(a, offset, b, off + done, n);
      offset += n;
      position += n;
      done += n;
    }
    return done;
  }

  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, length - position);
  }

  @Override
  public long skip(long n) {
    long target = Math.min(length, position + Math.max(0, n));
    long skipped = target - position;
    seek(target);
    return skipped;
  }

  @Override
  public boolean markSupported() {
    return true;
  }

  @Override
  public synchronized void mark(int readLimit) {
    mark = position;
  }

  @Override
  public synchronized void reset() {
    seek(mark);
  }

  private void seek(long target) {
    array = 0;
    offset = 0;
    position = 0;
    long left = target;
    while (left > 0) {
      int n = (int) Math.min(arrays.get(array).length, left);
      left -= n;
      position += n;
      if (n == arrays.get(array).length) {
        array++;
      } else {
        offset = n;
      }
    }
  }
}
