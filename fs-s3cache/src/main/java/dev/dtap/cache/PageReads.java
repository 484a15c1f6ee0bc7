package dev.dtap.cache;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;

/**
 * Hadoop's read calls (single byte, positioned, fully, into byte buffers) over one primitive: copy
 * bytes of one page. Argument checks follow the streams dtap sits on, so that a read behaves the
 * same with the cache as without.
 *
 * <p>Positioned reads are thread-safe where the subclass's primitive for them is: they may run on
 * several threads at once, beside the stream's own reads.
 */
abstract class PageReads extends FSInputStream
    implements ByteBufferReadable, ByteBufferPositionedReadable {
  final int pageSize;
  final long length;

  PageReads(int pageSize, long length) {
    this.pageSize = pageSize;
    this.length = length;
  }

  int pageLength(long index) {
    return (int) Math.min(pageSize, length - index * pageSize);
  }

  /**
   * Copies bytes of one page for a read of the stream: the heart of every stream read.
   *
   * @param position file position, below the length
   * @param sequential whether the reader is reading sequentially
   * @return bytes copied, at least one
   */
  abstract int readFromPage(long position, byte[] buf, int off, int len, boolean sequential)
      throws IOException;

  /**
   * Copies bytes of one page for a positioned read, without moving the stream's own state (its
   * position, the page it holds, its read-ahead): callers may run it on several threads at once.
   *
   * @param position file position, below the length
   * @return bytes copied, at least one
   */
  abstract int readFromPageAt(long position, byte[] buf, int off, int len) throws IOException;

  /**
   * Notes a stream read at a position.
   *
   * @return whether it continues the previous one (or the caller declared sequential reads)
   */
  abstract boolean sequentialRead(long position);

  /**
   * @throws IOException if the stream is closed
   */
  abstract void checkReadable() throws IOException;

  /**
   * @return the dtap path, for messages
   */
  abstract String description();

  @Override
  public synchronized int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(long position, byte[] buf, int off, int len) throws IOException {
    checkReadable();
    validatePositionedReadArgs(position, buf, off, len);
    if (len == 0) {
      return 0;
    }
    // Hadoop's check lets a negative offset through when the length fits; the streams underneath
    // refuse it with IndexOutOfBoundsException before reading, and so must the cache
    Objects.checkFromIndexSize(off, len, buf.length);
    if (position >= length) {
      return -1;
    }
    int total = 0;
    long p = position;
    while (total < len && p < length) {
      int n = readFromPageAt(p, buf, off + total, len - total);
      p += n;
      total += n;
    }
    return total;
  }

  @Override
  public void readFully(long position, byte[] buf, int off, int len) throws IOException {
    validatePositionedReadArgs(position, buf, off, len);
    if (len > 0) {
      Objects.checkFromIndexSize(off, len, buf.length);
    }
    int done = 0;
    while (done < len) {
      int n = read(position + done, buf, off + done, len - done);
      if (n < 0) {
        throw new EOFException(FSExceptionMessages.EOF_IN_READ_FULLY + ": " + description());
      }
      done += n;
    }
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (!dst.hasRemaining()) {
      return 0;
    }
    byte[] tmp = dst.hasArray() ? null : new byte[dst.remaining()];
    int n =
        tmp == null
            ? read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining())
            : read(tmp, 0, tmp.length);
    if (n > 0) {
      if (tmp == null) {
        dst.position(dst.position() + n);
      } else {
        dst.put(tmp, 0, n);
      }
    }
    return n;
  }

  @Override
  public int read(long position, ByteBuffer dst) throws IOException {
    if (!dst.hasRemaining()) {
      return 0;
    }
    byte[] tmp = new byte[dst.remaining()];
    int n = read(position, tmp, 0, tmp.length);
    if (n > 0) {
      dst.put(tmp, 0, n);
    }
    return n;
  }

  @Override
  public void readFully(long position, ByteBuffer dst) throws IOException {
    byte[] tmp = new byte[dst.remaining()];
    readFully(position, tmp, 0, tmp.length);
    dst.put(tmp);
  }
}
