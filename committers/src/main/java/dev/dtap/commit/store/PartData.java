package dev.dtap.commit.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Checksum;

/**
 * The bytes of one part, readable more than once so that a failed request can be retried.
 * Implementations are immutable.
 */
public interface PartData {
  /**
   * @return the number of bytes
   */
  long length();

  /**
   * Opens the bytes from the start.
   *
   * @return a new stream that supports mark and reset over the whole part (so a client can resend
   *     it); the caller closes it
   * @throws IOException if the bytes cannot be read
   */
  InputStream open() throws IOException;

  /** Receives a part's bytes block by block. */
  @FunctionalInterface
  interface BlockSink {
    /**
     * @param block holds the bytes; valid only during the call
     * @param offset where they start
     * @param length how many
     * @throws IOException if the sink fails
     */
    void accept(byte[] block, int offset, int length) throws IOException;
  }

  /**
   * Hands every byte to a sink, in order, in blocks of the implementation's choosing: the part's
   * own arrays where it has them, so that hashing or sending it copies nothing.
   *
   * @param sink receives the blocks
   * @throws IOException if the bytes cannot be read, or the sink fails
   */
  default void forEachBlock(BlockSink sink) throws IOException {
    byte[] buffer = new byte[256 << 10];
    try (InputStream in = open()) {
      int n;
      while ((n = in.read(buffer)) > 0) {
        sink.accept(buffer, 0, n);
      }
    }
  }

  /**
   * The part's bytes as buffers over its own memory, for senders that take buffers: nothing is
   * copied, a last array used in part included.
   *
   * @return new buffers in order, each positioned at its first byte and limited to its last, or
   *     null when the part is not held in memory (read it with {@link #open()})
   */
  default List<ByteBuffer> buffers() {
    return null;
  }

  /**
   * Feeds every byte to a checksum, in order.
   *
   * @param checksum the checksum to update
   * @throws IOException if the bytes cannot be read
   */
  default void update(Checksum checksum) throws IOException {
    forEachBlock(checksum::update);
  }

  /**
   * Bytes held in memory in several arrays, read one after the other: a writer fills them without
   * ever copying what it already holds into a larger array.
   *
   * @param chunks the arrays, in order, not copied: they must not change until the upload returns
   * @param length the part's size: every array is read whole except the last, of which only what
   *     makes up {@code length} is read
   * @return the part
   * @throws IllegalArgumentException if the arrays hold fewer than {@code length} bytes
   */
  static PartData of(List<byte[]> chunks, long length) {
    long held = 0;
    for (byte[] c : chunks) {
      held += c.length;
    }
    if (held < length) {
      throw new IllegalArgumentException("chunks hold " + held + " bytes, fewer than " + length);
    }
    List<byte[]> parts = List.copyOf(chunks);
    return new PartData() {
      @Override
      public long length() {
        return length;
      }

      @Override
      public void forEachBlock(BlockSink sink) throws IOException {
        for (ByteBuffer b : buffers()) {
          sink.accept(b.array(), b.position(), b.remaining());
        }
      }

      @Override
      public List<ByteBuffer> buffers() {
        List<ByteBuffer> out = new ArrayList<>(parts.size());
        long left = length;
        for (byte[] c : parts) {
          if (left == 0) {
            break;
          }
          int n = (int) Math.min(c.length, left);
          if (n > 0) {
            out.add(ByteBuffer.wrap(c, 0, n));
          }
          left -= n;
        }
        return out;
      }

      @Override
      public InputStream open() {
        return new ArraysInputStream(parts, length);
      }
    };
  }

  /**
   * A range of a local file.
   *
   * @param file the file
   * @param offset where the part starts
   * @param length the part's size
   * @return the part
   */
  static PartData ofFile(Path file, long offset, long length) {
    return new PartData() {
      @Override
      public long length() {
        return length;
      }

      @Override
      public InputStream open() throws IOException {
        return new FileRangeInputStream(
            FileChannel.open(file, StandardOpenOption.READ), offset, length);
      }
    };
  }
}
