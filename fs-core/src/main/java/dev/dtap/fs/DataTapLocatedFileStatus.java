package dev.dtap.fs;

import java.io.ObjectStreamException;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * A backend status with block locations, seen through a tap. See {@link DataTapFileStatus} for why
 * permission, owner and group are read lazily.
 */
final class DataTapLocatedFileStatus extends LocatedFileStatus
    implements EtagSource, BackendStatusHolder {
  private static final long serialVersionUID = 1L;

  private final transient FileStatus backend;

  DataTapLocatedFileStatus(
      FileStatus backend, Path dtapPath, long blockSize, BlockLocation[] locations) {
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
            backend.isSnapshotEnabled()),
        locations);
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

  /** Serialises as a plain located status: the backend reference does not travel. */
  private Object writeReplace() throws ObjectStreamException {
    return new LocatedFileStatus(
        getLen(),
        isDirectory(),
        getReplication(),
        getBlockSize(),
        getModificationTime(),
        getAccessTime(),
        getPermission(),
        getOwner(),
        getGroup(),
        null,
        getPath(),
        attributes(hasAcl(), isEncrypted(), isErasureCoded(), isSnapshotEnabled()),
        getBlockLocations());
  }
}
