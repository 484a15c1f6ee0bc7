package dev.dtap.fs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The status of a local file as Hadoop's local filesystem reports it (replication 1, the local
 * block size, the local path qualified with {@code file:}), made from one {@code stat}.
 *
 * <p>Permission, owner and group are read on first use, with one more {@code stat}, as Hadoop's own
 * local status does: most callers never ask, and without native code Hadoop forks {@code ls} for
 * them. When the file is gone by then, the getter throws an unchecked exception and a later call
 * tries again, as Hadoop's own local status does on Linux.
 *
 * <p>Thread-safe: the lazy load is synchronised.
 */
final class LocalFileStatus extends FileStatus {
  private static final long serialVersionUID = 1L;

  /** Permission bits Hadoop keeps: rwx for user, group and other, and the sticky bit. */
  private static final int PERMISSION_BITS = 01777;

  private final String localPath;
  private boolean permissionLoaded;

  LocalFileStatus(BasicFileAttributes attrs, long blockSize, Path backendPath, String localPath) {
    super(
        attrs.size(),
        attrs.isDirectory(),
        1,
        blockSize,
        attrs.lastModifiedTime().toMillis(),
        attrs.lastAccessTime().toMillis(),
        null,
        null,
        null,
        backendPath);
    this.localPath = localPath;
  }

  @Override
  public FsPermission getPermission() {
    loadPermission();
    return super.getPermission();
  }

  @Override
  public String getOwner() {
    loadPermission();
    return super.getOwner();
  }

  @Override
  public String getGroup() {
    loadPermission();
    return super.getGroup();
  }

  private synchronized void loadPermission() {
    if (permissionLoaded) {
      return;
    }
    Map<String, Object> unix;
    try {
      unix = Files.readAttributes(Paths.get(localPath), "unix:mode,owner,group");
    } catch (IOException e) {
      // a getter cannot throw IOException; the local path stays out of the message
      throw new UncheckedIOException(
          "Cannot read the permission of "
              + getPath().getName()
              + ": "
              + e.getClass().getSimpleName(),
          new IOException(e.getClass().getSimpleName()));
    }
    setPermission(new FsPermission((short) ((Integer) unix.get("mode") & PERMISSION_BITS)));
    setOwner(((UserPrincipal) unix.get("owner")).getName());
    setGroup(((UserPrincipal) unix.get("group")).getName());
    permissionLoaded = true;
  }
}
