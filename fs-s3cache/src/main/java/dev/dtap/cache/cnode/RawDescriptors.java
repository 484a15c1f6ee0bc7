package dev.dtap.cache.cnode;

import java.io.FileDescriptor;
import java.lang.reflect.Field;
import sun.misc.Unsafe;

/**
 * The number behind a {@link FileDescriptor}, both ways. The JDK opens files but does not say which
 * descriptor it got, nor wrap one it did not open; passing descriptors between processes needs
 * both. Netty's own {@code FileDescriptor.from} cannot serve here: it opens for writing and
 * truncates the file. The field is read and written through {@code sun.misc.Unsafe} (module {@code
 * jdk.unsupported}, open to all), as Netty and Hadoop do for other internals, so no {@code
 * --add-opens} is needed. Where that is not possible, {@link #AVAILABLE} is false and pages travel
 * as bytes.
 *
 * <p>Stateless and thread-safe.
 */
final class RawDescriptors {
  /** Whether descriptors can be read and made here. */
  static final boolean AVAILABLE;

  private static final Unsafe UNSAFE;
  private static final long FD;

  static {
    Unsafe u = null;
    long offset = -1;
    try {
      Field f = Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      u = (Unsafe) f.get(null);
      offset = u.objectFieldOffset(FileDescriptor.class.getDeclaredField("fd"));
    } catch (ReflectiveOperationException | RuntimeException e) {
      u = null;
    }
    UNSAFE = u;
    FD = offset;
    AVAILABLE = u != null && offset >= 0 && probe();
  }

  private RawDescriptors() {}

  private static boolean probe() {
    FileDescriptor d = new FileDescriptor();
    UNSAFE.putInt(d, FD, 7);
    return UNSAFE.getInt(d, FD) == 7 && UNSAFE.getInt(FileDescriptor.in, FD) == 0;
  }

  /**
   * @param d an open descriptor
   * @return its number
   */
  static int number(FileDescriptor d) {
    return UNSAFE.getInt(d, FD);
  }

  /**
   * Wraps a descriptor number this process owns (received from the service); closing a stream over
   * the result closes it, so nothing else may close it.
   *
   * @param fd the number
   * @return a descriptor for {@link java.io.FileInputStream#FileInputStream(FileDescriptor)}
   */
  static FileDescriptor wrap(int fd) {
    FileDescriptor d = new FileDescriptor();
    UNSAFE.putInt(d, FD, fd);
    return d;
  }
}
