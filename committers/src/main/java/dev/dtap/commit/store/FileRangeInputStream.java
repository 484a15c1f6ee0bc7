package dev.dtap.commit.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A range of a local file as a stream, read through its channel. Mark and reset work over the whole
 * range, whatever the read limit, so a client that resends a part can rewind it. Not thread-safe,
 * as streams are not.
 */
final class FileRangeInputStream extends InputStream {
  private final FileChannel channel;
  private final long start;
  private final long length;
  private long position;
  private long mark;

  /**
   * @param channel the open file, closed with the stream
   * @param start where the range starts
   * @param length its bytes
   */
  FileRangeInputStream(FileChannel channel, long start, long length) {
    this.channel = channel;
    this.start = start;
    this.length = length;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (position >= length) {
      return -1;
    }
    int want = (int) Math.min(len, length - position);
    int n = channel.read(ByteBuffer.wrap(b, off, want), start + position);
    if (n < 0) {
      throw new IOException("The file ended " + (length - position) + " bytes before the part did");
    }
    position += n;
    return n;
  }

  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, length - position);
  }

  @Override
  public long skip(long n) {
    long target = Math.min(length, position + Math.max(0, n));
    long skipped = target - position;
    position = target;
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
    position = mark;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
