package dev.dtap.fs;

import dev.dtap.fs.spi.TapExtensions;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.MultipartUploaderBuilder;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.impl.OpenFileParameters;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The {@code dtap://<tap>/<path>} filesystem: each tap is a named root on another Hadoop filesystem
 * (an S3A bucket and prefix, a remote HDFS directory, a local or NFS path), configured in
 * core-site.xml under {@code fs.dtap.tap.<name>.*}.
 *
 * <p>One instance serves one tap, the authority of its URI, as Hadoop's filesystem cache keys
 * instances by scheme, authority and user. Every call is translated to the tap's private backend
 * and everything returned is translated back, so jobs see only {@code dtap://} paths. Paths that
 * leave the tap root and mutations of read-only taps fail with {@link
 * org.apache.hadoop.security.AccessControlException} before the backend is touched. The work is
 * done by small per-operation classes; this class only binds them to Hadoop's API.
 *
 * <p>Thread-safe to the same degree as the backend filesystem; the working directory is per
 * instance, as in every Hadoop filesystem.
 */
public class DataTapFileSystem extends TapFileSystemBase implements TapExtensions {
  /** The URI scheme. */
  public static final String SCHEME = "dtap";

  /** Creates an uninitialised filesystem; Hadoop calls {@link #initialize}. */
  public DataTapFileSystem() {
    super(BackendOpener.NEW_INSTANCE);
  }

  /** For tests that need to watch the backend. */
  DataTapFileSystem(BackendOpener opener) {
    super(opener);
  }

  @Override
  public <T> Optional<T> tapExtension(Class<T> type) {
    if (tap == null) {
      return Optional.empty();
    }
    return tap.extension(type);
  }

  // ---- reading

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    return reads.open(f, bufferSize);
  }

  @Override
  protected CompletableFuture<FSDataInputStream> openFileWithOptions(
      Path path, OpenFileParameters parameters) throws IOException {
    return reads.openFile(path, parameters);
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    return reads.getFileStatus(f);
  }

  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len)
      throws IOException {
    return reads.getFileBlockLocations(file, start, len);
  }

  @Override
  public ContentSummary getContentSummary(Path f) throws IOException {
    return reads.getContentSummary(f);
  }

  @Override
  public Path resolvePath(Path f) throws IOException {
    return reads.resolvePath(f);
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    return listings.listStatus(f);
  }

  @Override
  public RemoteIterator<FileStatus> listStatusIterator(Path f) throws IOException {
    return listings.listStatusIterator(f);
  }

  @Override
  protected RemoteIterator<LocatedFileStatus> listLocatedStatus(Path f, PathFilter filter)
      throws IOException {
    return listings.listLocatedStatus(f, filter);
  }

  @Override
  public RemoteIterator<LocatedFileStatus> listFiles(Path f, boolean recursive) throws IOException {
    return listings.listFiles(f, recursive);
  }

  @Override
  public RemoteIterator<Path> listCorruptFileBlocks(Path f) throws IOException {
    return listings.listCorruptFileBlocks(f);
  }

  // ---- writing

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    EnumSet<CreateFlag> flags =
        overwrite
            ? EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)
            : EnumSet.of(CreateFlag.CREATE);
    return writes.create(
        f,
        flags,
        (fs, b) ->
            fs.create(b, permission, overwrite, bufferSize, replication, blockSize, progress));
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      EnumSet<CreateFlag> flags,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress,
      Options.ChecksumOpt checksumOpt)
      throws IOException {
    return writes.create(
        f,
        flags,
        (fs, b) ->
            fs.create(
                b, permission, flags, bufferSize, replication, blockSize, progress, checksumOpt));
  }

  @Override
  public FSDataOutputStream createNonRecursive(
      Path f,
      FsPermission permission,
      EnumSet<CreateFlag> flags,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    return writes.create(
        f,
        flags,
        (fs, b) ->
            fs.createNonRecursive(
                b, permission, flags, bufferSize, replication, blockSize, progress));
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    return writes.append(f, bufferSize, progress, null);
  }

  @Override
  public FSDataOutputStream append(
      Path f, int bufferSize, Progressable progress, boolean appendToNewBlock) throws IOException {
    return writes.append(f, bufferSize, progress, appendToNewBlock);
  }

  @Override
  public FSDataOutputStreamBuilder createFile(Path path) {
    return new DataTapOutputStreamBuilder(this, path).create().overwrite(true);
  }

  @Override
  public FSDataOutputStreamBuilder appendFile(Path path) {
    return new DataTapOutputStreamBuilder(this, path).append();
  }

  /** Builds a stream for {@link DataTapOutputStreamBuilder}. */
  FSDataOutputStream buildOutput(Path f, DataTapOutputStreamBuilder settings) throws IOException {
    return writes.build(f, settings);
  }

  /**
   * Renames within the tap.
   *
   * @throws IOException if {@code dst} is on another tap: rename never copies
   * @throws org.apache.hadoop.security.AccessControlException on a read-only tap
   */
  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    return writes.rename(src, dst);
  }

  @Override
  @SuppressWarnings("deprecation")
  protected void rename(Path src, Path dst, Options.Rename... options) throws IOException {
    writes.rename(src, dst, options);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    return writes.delete(f, recursive);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    return writes.mkdirs(f, permission);
  }

  @Override
  public boolean truncate(Path f, long newLength) throws IOException {
    return writes.truncate(f, newLength);
  }

  @Override
  public void concat(Path trg, Path[] psrcs) throws IOException {
    writes.concat(trg, psrcs);
  }

  // Compound operations: refused on a read-only tap before their first (read) call reaches the
  // backend, instead of failing half-way.

  @Override
  public boolean createNewFile(Path f) throws IOException {
    ctx.refuseIfReadOnly(f, "createNewFile");
    return super.createNewFile(f);
  }

  @Override
  @SuppressWarnings("deprecation")
  protected FSDataOutputStream primitiveCreate(
      Path f,
      FsPermission absolutePermission,
      EnumSet<CreateFlag> flag,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress,
      Options.ChecksumOpt checksumOpt)
      throws IOException {
    ctx.refuseIfReadOnly(f, "create");
    return super.primitiveCreate(
        f, absolutePermission, flag, bufferSize, replication, blockSize, progress, checksumOpt);
  }

  @Override
  @SuppressWarnings("deprecation")
  protected void primitiveMkdir(Path f, FsPermission absolutePermission, boolean createParent)
      throws IOException {
    ctx.refuseIfReadOnly(f, "mkdirs");
    super.primitiveMkdir(f, absolutePermission, createParent);
  }

  @Override
  public void copyFromLocalFile(boolean delSrc, boolean overwrite, Path[] srcs, Path dst)
      throws IOException {
    ctx.refuseIfReadOnly(dst, "copyFromLocalFile");
    super.copyFromLocalFile(delSrc, overwrite, srcs, dst);
  }

  @Override
  public void copyFromLocalFile(boolean delSrc, boolean overwrite, Path src, Path dst)
      throws IOException {
    ctx.refuseIfReadOnly(dst, "copyFromLocalFile");
    super.copyFromLocalFile(delSrc, overwrite, src, dst);
  }

  @Override
  public void copyToLocalFile(boolean delSrc, Path src, Path dst, boolean useRawLocalFileSystem)
      throws IOException {
    if (delSrc) {
      ctx.refuseIfReadOnly(src, "moveToLocalFile");
    }
    super.copyToLocalFile(delSrc, src, dst, useRawLocalFileSystem);
  }

  @Override
  public boolean deleteOnExit(Path f) throws IOException {
    ctx.refuseIfReadOnly(f, "deleteOnExit");
    return super.deleteOnExit(f);
  }

  @Override
  public void createSymlink(Path target, Path link, boolean createParent) throws IOException {
    ctx.refuseIfReadOnly(link, "createSymlink");
    throw new UnsupportedOperationException(
        "dtap does not create symbolic links (" + makeQualified(link) + ")");
  }

  @Override
  public MultipartUploaderBuilder createMultipartUploader(Path basePath) throws IOException {
    ctx.refuseIfReadOnly(basePath, "createMultipartUploader");
    throw new UnsupportedOperationException(
        "dtap does not expose the backend's multipart uploader (" + makeQualified(basePath) + ")");
  }
}
