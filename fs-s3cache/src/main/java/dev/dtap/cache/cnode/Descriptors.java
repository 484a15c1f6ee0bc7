package dev.dtap.cache.cnode;

import io.netty.channel.unix.FileDescriptor;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * Turns a descriptor received from the service into something Java reads: a {@link FileChannel}
 * over the very descriptor ({@link RawDescriptors}), with positioned reads, kept open for re-reads.
 * Without that, the file is reopened through {@code /proc/self/fd} (which the kernel allows only if
 * this process may open the file by itself), and failing that the descriptor is read from its
 * start, once, into memory. Stateless.
 */
final class Descriptors {
  private static final Path PROC_FD = Paths.get("/proc/self/fd");

  private Descriptors() {}

  /**
   * The page file as a channel.
   *
   * @param fd a descriptor received from the service
   * @return a channel that owns the descriptor (closing it closes the descriptor; nothing else
   *     may), or null when neither wrapping nor reopening works: the caller then reads it with
   *     {@link #readAll} and closes it
   */
  static FileChannel channel(FileDescriptor fd) {
    if (RawDescriptors.AVAILABLE) {
      return new FileInputStream(RawDescriptors.wrap(fd.intValue())).getChannel();
    }
    try {
      FileChannel ch =
          FileChannel.open(
              PROC_FD.resolve(Integer.toString(fd.intValue())), StandardOpenOption.READ);
      fd.close(); // the reopened file has a descriptor of its own
      return ch;
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  /**
   * Reads a freshly opened descriptor from its start.
   *
   * @param fd the descriptor, positioned at 0
   * @param size the file's size
   * @return its bytes
   * @throws IOException if it cannot be read or ends early
   */
  static byte[] readAll(FileDescriptor fd, long size) throws IOException {
    if (size < 0 || size > Wire.MAX_FRAME) {
      throw new IOException("a page file of " + size + " bytes");
    }
    ByteBuffer buf = ByteBuffer.allocateDirect((int) size);
    while (buf.hasRemaining()) {
      int n = fd.read(buf, buf.position(), buf.limit());
      if (n < 0) {
        throw new EOFException("the page file ended early");
      }
      buf.position(buf.position() + n);
    }
    buf.flip();
    byte[] bytes = new byte[(int) size];
    buf.get(bytes);
    return bytes;
  }
}
