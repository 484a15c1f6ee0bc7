package dev.dtap.fs;

import java.io.File;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * File status and directory listings of a tap on Hadoop's own local filesystem, read with one
 * {@code stat} per entry.
 *
 * <p>Hadoop's local filesystem makes five {@code stat} calls for one status (exists, length,
 * is-directory, modification time, access time), each a round trip to the server on an NFS mount.
 * This reads the same facts with one call and builds the status Hadoop would return: the same
 * length, type, times, replication, block size and path, links followed, checksum files hidden when
 * the backend is the checksummed {@link LocalFileSystem}, entries that vanish mid-listing skipped.
 * Anything unusual (a missing path, an unreadable directory) returns null so that the backend
 * answers and its exceptions stay exactly its own.
 *
 * <p>Used only when the backend is exactly Hadoop's {@link LocalFileSystem} or {@link
 * RawLocalFileSystem} (a subclass or another {@code fs.file.impl} may report statuses differently)
 * on a platform with POSIX attributes, and only while Hadoop builds its local statuses its default
 * way: {@link RawLocalFileSystem#useStatIfAvailable()} switches the whole JVM to the {@code stat}
 * command, whose times are whole seconds, and then every call goes to the backend. Thread-safe and
 * stateless.
 */
final class LocalMetadata {
  /**
   * Hadoop's JVM-wide switch between its default status code and the {@code stat} command, or null
   * when this Hadoop has no such field (then the fast path is never used).
   */
  private static final VarHandle HADOOP_DEFAULT_STATUS = hadoopDefaultStatusSwitch();

  private final FileSystem backend;
  private final long blockSize;
  private final boolean hidesChecksumFiles;

  private LocalMetadata(FileSystem backend, long blockSize, boolean hidesChecksumFiles) {
    this.backend = backend;
    this.blockSize = blockSize;
    this.hidesChecksumFiles = hidesChecksumFiles;
  }

  /**
   * The reader for a backend, if the backend is Hadoop's stock local filesystem.
   *
   * @param backend the tap's backend
   * @param root the qualified backend root
   * @return the reader, or null when the backend must answer every call itself
   */
  static LocalMetadata forBackend(FileSystem backend, Path root) {
    if (HADOOP_DEFAULT_STATUS == null
        || !FileSystems.getDefault().supportedFileAttributeViews().contains("unix")) {
      return null;
    }
    boolean checksummed;
    if (backend.getClass() == RawLocalFileSystem.class) {
      checksummed = false;
    } else if (backend.getClass() == LocalFileSystem.class
        && ((LocalFileSystem) backend).getRawFileSystem().getClass() == RawLocalFileSystem.class) {
      checksummed = true;
    } else {
      return null;
    }
    return new LocalMetadata(backend, backend.getDefaultBlockSize(root), checksummed);
  }

  /**
   * The status of a backend path, links followed.
   *
   * @param backendPath a qualified {@code file:} path
   * @return the status, or null when the backend must answer (missing, unreadable)
   */
  FileStatus status(Path backendPath) {
    if (!hadoopUsesItsDefaultStatus()) {
      return null;
    }
    String local = backendPath.toUri().getPath();
    BasicFileAttributes attrs = stat(local);
    return attrs == null ? null : new LocalFileStatus(attrs, blockSize, backendPath, local);
  }

  /**
   * The listing of a backend directory, or the status of a file as a one-entry listing.
   *
   * @param backendPath a qualified {@code file:} path
   * @return the statuses, or null when the backend must answer (missing, unreadable)
   */
  FileStatus[] list(Path backendPath) {
    if (!hadoopUsesItsDefaultStatus()) {
      return null;
    }
    String local = backendPath.toUri().getPath();
    BasicFileAttributes attrs = stat(local);
    if (attrs == null) {
      return null;
    }
    if (!attrs.isDirectory()) {
      return isHidden(backendPath.getName())
          ? new FileStatus[0]
          : new FileStatus[] {new LocalFileStatus(attrs, blockSize, backendPath, local)};
    }
    String[] names = new File(local).list();
    if (names == null) {
      return null; // unreadable: the backend's own error
    }
    String dir = local.endsWith("/") ? local : local + "/";
    FileStatus[] out = new FileStatus[names.length];
    int n = 0;
    for (String name : names) {
      if (isHidden(name)) {
        continue;
      }
      String child = dir + name;
      BasicFileAttributes a = stat(child);
      if (a != null) {
        // as Hadoop's listing: an entry deleted since the directory was read, or a dangling
        // link, is left out
        out[n++] = new LocalFileStatus(a, blockSize, childPath(backendPath, name), child);
      }
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  /** As Hadoop's listing builds a child: the name taken as a relative path, never as a URI. */
  private static Path childPath(Path parent, String name) {
    return new Path(parent, new Path(null, null, name));
  }

  private boolean isHidden(String name) {
    return hidesChecksumFiles && name.startsWith(".") && name.endsWith(".crc");
  }

  private static BasicFileAttributes stat(String local) {
    try {
      return Files.readAttributes(Paths.get(local), BasicFileAttributes.class);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static boolean hadoopUsesItsDefaultStatus() {
    return (boolean) HADOOP_DEFAULT_STATUS.get();
  }

  private static VarHandle hadoopDefaultStatusSwitch() {
    try {
      return MethodHandles.privateLookupIn(RawLocalFileSystem.class, MethodHandles.lookup())
          .findStaticVarHandle(RawLocalFileSystem.class, "useDeprecatedFileStatus", boolean.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
