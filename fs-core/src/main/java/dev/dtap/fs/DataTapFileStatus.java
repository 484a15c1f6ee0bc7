package dev.dtap.fs;

import java.io.IOException;
import java.io.ObjectStreamException;
import java.io.UncheckedIOException;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * A backend file status seen through a tap: the path speaks dtap, everything else is the backend's.
 *
 * <p>Permission, owner and group are read from the backend status only when asked, because some
 * backends compute them lazily at a high price (the local filesystem without native code forks a
 * process per file). The backend's ETag stays visible through {@link EtagSource}, and {@link
 * #backendStatus()} lets dtap hand the original to the backend again ({@code openFile()} with a
 * status skips a probe only when the backend recognises its own status type).
 *
 * <p>Not thread-safe beyond {@link FileStatus}'s own guarantees.
 */
final class DataTapFileStatus extends FileStatus implements EtagSource, BackendStatusHolder {
  private static final long serialVersionUID = 1L;

  private final transient FileStatus backend;

  DataTapFileStatus(FileStatus backend, Path dtapPath, long blockSize) {
    super(
        backend.getLen(),
        backend.isDirectory(),
        backend.getReplication(),
        blockSize,
        backend.getModificationTime(),
        backend.getAccessTime(),
        null,
        null,
        null,
        null,
        dtapPath,
        attributes(
            backend.hasAcl(),
            backend.isEncrypted(),
            backend.isErasureCoded(),
            backend.isSnapshotEnabled()));
    this.backend = backend;
  }

  @Override
  public FileStatus backendStatus() {
    return backend;
  }

  @Override
  public FsPermission getPermission() {
    return backend.getPermission();
  }

  @Override
  public String getOwner() {
    return backend.getOwner();
  }

  @Override
  public String getGroup() {
    return backend.getGroup();
  }

  @Override
  public String getEtag() {
    return backend instanceof EtagSource ? ((EtagSource) backend).getEtag() : null;
  }

  @Override
  public boolean equals(Object o) {
    return super.equals(o);
  }

  @Override
  public int hashCode() {
    return super.hashCode();
  }

  /** Serialises as a plain status: the backend reference does not travel. */
  private Object writeReplace() throws ObjectStreamException {
    try {
      return new FileStatus(this);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
