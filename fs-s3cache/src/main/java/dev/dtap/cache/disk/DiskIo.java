package dev.dtap.cache.disk;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * The file operations of the disk tier, behind one small interface so that tests can inject the
 * faults a real disk produces (full, read-only, failing, slow).
 */
public interface DiskIo {
  /** The real thing. */
  DiskIo NIO = new DiskIo() {};

  /**
   * The clock disk operations are timed by against {@code fs.dtap.cache.deadline}: {@link
   * System#nanoTime()}; a test's slow disk advances its own instead of sleeping.
   *
   * @return nanoseconds from an arbitrary origin
   */
  default long nanoTime() {
    return System.nanoTime();
  }

  /** Opens a page file to read. */
  default FileChannel openForRead(Path path) throws IOException {
    return FileChannel.open(path, StandardOpenOption.READ);
  }

  /** Creates a new temporary page file to write. */
  default FileChannel createForWrite(Path path, FileAttribute<Set<PosixFilePermission>> perms)
      throws IOException {
    return FileChannel.open(
        path, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), perms);
  }

  /** Renames a written page into place, atomically. */
  default void publish(Path tmp, Path target) throws IOException {
    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
  }
}
