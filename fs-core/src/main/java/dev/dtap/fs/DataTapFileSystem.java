package dev.dtap.fs;

import dev.dtap.fs.DataTapStatistics.Op;
import dev.dtap.fs.config.DataTapConfig;
import dev.dtap.fs.config.TapConfig;
import dev.dtap.fs.spi.OpenRequest;
import dev.dtap.fs.spi.OutputHook;
import dev.dtap.fs.spi.ReadCache;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.FutureDataInputStreamBuilder;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.impl.OpenFileParameters;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;

/**
 * The {@code dtap://<tap>/<path>} filesystem: each tap is a named root on another Hadoop filesystem
 * (an S3A bucket and prefix, a remote HDFS directory, a local or NFS path), configured in
 * core-site.xml under {@code fs.dtap.tap.<name>.*}.
 *
 * <p>One instance serves one tap, the authority of its URI, as Hadoop's filesystem cache keys
 * instances by scheme, authority and user. Every call is translated to the tap's private backend
 * and everything returned is translated back, so jobs see only {@code dtap://} paths. Paths that
 * leave the tap root and mutations of read-only taps fail with {@link AccessControlException}
 * before the backend is touched.
 *
 * <p>Thread-safe to the same degree as the backend filesystem; the working directory is per
 * instance, as in every Hadoop filesystem.
 */
public class DataTapFileSystem extends FileSystem implements IOStatisticsSource {
  /** The URI scheme. */
  public static final String SCHEME = "dtap";

  private URI uri;
  private Tap tap;
  private Path workingDir;
  private String user;
  private final DataTapStatistics iostats = new DataTapStatistics();

  /** Creates an uninitialised filesystem; Hadoop calls {@link #initialize}. */
  public DataTapFileSystem() {}

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    String tapName = name.getAuthority();
    Extensions extensions = Extensions.discover();
    DataTapConfig config = DataTapConfig.parse(conf, extensions.keys());
    if (tapName == null || tapName.isEmpty()) {
      throw new IOException(
          "A dtap URI must name a tap, as in dtap://<tap>/path (got " + name + "); configured taps: "
              + config.tapNames());
    }
    TapConfig tapConfig = config.tap(tapName);
    if (tapConfig == null) {
      throw new FileNotFoundException(
          "Unknown tap '"
              + tapName
              + "' in "
              + name
              + ": no fs.dtap.tap."
              + tapName
              + ".uri is configured; configured taps: "
              + config.tapNames());
    }
    this.uri = URI.create(SCHEME + "://" + tapName);
    this.user = UserGroupInformation.getCurrentUser().getShortUserName();
    this.tap = Tap.open(tapConfig, conf, iostats, extensions);
    this.workingDir = getHomeDirectory();
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  protected int getDefaultPort() {
    return -1;
  }

  @Override
  protected void checkPath(Path path) {
    URI p = path.toUri();
    if (SCHEME.equalsIgnoreCase(p.getScheme())
        && p.getAuthority() != null
        && tap != null
        && !p.getAuthority().equals(tap.name())) {
      throw new IllegalArgumentException(
          "Wrong FS: "
              + path
              + " is on tap '"
              + p.getAuthority()
              + "' but this filesystem serves tap '"
              + tap.name()
              + "'; use FileSystem.get(path.toUri(), conf)");
    }
    super.checkPath(path);
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDir = makeQualified(dir);
  }

  @Override
  public Path getHomeDirectory() {
    return makeQualified(new Path("/user/" + user));
  }

  /** @return the tap this filesystem serves, for extensions and tests in this package */
  Tap tap() {
    return tap;
  }

  // ---- helpers

  private interface BackendCall<T> {
    T call() throws IOException;
  }

  private <T> T call(BackendCall<T> c) throws IOException {
    try {
      return c.call();
    } catch (IOException e) {
      throw tap.errors().translate(e);
    }
  }

  private Path backendPath(Path qualified) throws IOException {
    return tap.toBackend(qualified);
  }

  private Path writable(Path f, String operation) throws IOException {
    Path p = makeQualified(f);
    tap.checkWritable(p, operation);
    statistics.incrementWriteOps(1);
    return p;
  }

  private Path readable(Path f, Op op) {
    Path p = makeQualified(f);
    statistics.incrementReadOps(1);
    iostats.increment(op);
    return p;
  }

  private boolean isRoot(Path qualified) throws IOException {
    return tap.mapper().normalise(qualified).isEmpty();
  }

  private FileSystem backend() {
    return tap.backend();
  }

  private FSDataInputStream wrapIn(FSDataInputStream in, Path p) {
    return new FSDataInputStream(new DataTapInputStream(in, tap.errors(), statistics, p.toString()));
  }

  private FSDataOutputStream wrapOut(FSDataOutputStream out, Path p) throws IOException {
    return new FSDataOutputStream(
        new DataTapOutputStream(out, tap.errors(), p.toString()), statistics, out.getPos());
  }

  /** The tap root always exists, even before anything was written under a fresh prefix. */
  private FileStatus rootStatus(Path backendRoot) throws IOException {
    return tap.toDtapStatus(
        new FileStatus(0, true, 1, 0, 0, 0, FsPermission.getDirDefault(), user, user, backendRoot));
  }

  // ---- reading

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    Path p = readable(f, Op.OPEN);
    Path b = backendPath(p);
    ReadCache cache = tap.cache();
    if (cache != null) {
      return wrapIn(call(() -> cache.open(new OpenRequest(p, b, null, bufferSize, null))), p);
    }
    return wrapIn(call(() -> backend().open(b, bufferSize)), p);
  }

  @Override
  protected CompletableFuture<FSDataInputStream> openFileWithOptions(
      Path path, OpenFileParameters parameters) throws IOException {
    Path p = readable(path, Op.OPEN);
    Path b = backendPath(p);
    FileStatus status = backendStatusFor(parameters.getStatus(), b);
    ReadCache cache = tap.cache();
    if (cache != null) {
      OpenRequest request =
          new OpenRequest(p, b, status, parameters.getBufferSize(), parameters.getOptions());
      return CompletableFuture.completedFuture(wrapIn(call(() -> cache.open(request)), p));
    }
    FutureDataInputStreamBuilder builder = call(() -> backend().openFile(b));
    Configuration options = parameters.getOptions();
    if (options != null) {
      for (Map.Entry<String, String> e : options) {
        if (parameters.getMandatoryKeys().contains(e.getKey())) {
          builder.must(e.getKey(), e.getValue());
        } else {
          builder.opt(e.getKey(), e.getValue());
        }
      }
    }
    if (status != null) {
      builder.withFileStatus(status);
    }
    CompletableFuture<FSDataInputStream> future = call(builder::build);
    return future.handle(
        (in, failure) -> {
          if (failure == null) {
            return wrapIn(in, p);
          }
          Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
          if (cause instanceof IOException) {
            throw new CompletionException(tap.errors().translate((IOException) cause));
          }
          throw new CompletionException(cause);
        });
  }

  /** The backend's own status for a status a caller supplied, so the backend skips its probe. */
  private FileStatus backendStatusFor(FileStatus supplied, Path backendPath) {
    if (supplied == null) {
      return null;
    }
    if (supplied instanceof BackendStatusHolder) {
      FileStatus original = ((BackendStatusHolder) supplied).backendStatus();
      if (original != null) {
        return original;
      }
    }
    return new FileStatus(
        supplied.getLen(),
        supplied.isDirectory(),
        supplied.getReplication(),
        supplied.getBlockSize(),
        supplied.getModificationTime(),
        backendPath);
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    Path p = readable(f, Op.GET_FILE_STATUS);
    Path b = backendPath(p);
    OutputHook hook = tap.hookFor(p);
    if (hook != null) {
      FileStatus hooked = call(() -> hook.getFileStatus(p));
      if (hooked != null) {
        return hooked;
      }
    }
    try {
      return tap.toDtapStatus(backend().getFileStatus(b));
    } catch (FileNotFoundException e) {
      if (isRoot(p)) {
        return rootStatus(b);
      }
      throw tap.errors().translate(e);
    } catch (IOException e) {
      throw tap.errors().translate(e);
    }
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    Path p = readable(f, Op.LIST_STATUS);
    Path b = backendPath(p);
    FileStatus[] listed;
    try {
      listed = backend().listStatus(b);
    } catch (FileNotFoundException e) {
      if (isRoot(p)) {
        return new FileStatus[0];
      }
      throw tap.errors().translate(e);
    } catch (IOException e) {
      throw tap.errors().translate(e);
    }
    FileStatus[] out = new FileStatus[listed.length];
    for (int i = 0; i < listed.length; i++) {
      out[i] = tap.toDtapStatus(listed[i]);
    }
    return out;
  }

  @Override
  public RemoteIterator<FileStatus> listStatusIterator(Path f) throws IOException {
    Path p = readable(f, Op.LIST_STATUS);
    Path b = backendPath(p);
    return new MappedIterator<>(
        call(() -> backend().listStatusIterator(b)),
        tap::toDtapStatus,
        null,
        FileStatus::getPath,
        tap.errors());
  }

  @Override
  protected RemoteIterator<LocatedFileStatus> listLocatedStatus(Path f, PathFilter filter)
      throws IOException {
    Path p = readable(f, Op.LIST_LOCATED_STATUS);
    Path b = backendPath(p);
    if (tap.hasLocalityResolver()) {
      // Locations come from the resolver: a plain paged listing, no per-file location calls.
      return new MappedIterator<>(
          call(() -> backend().listStatusIterator(b)),
          tap::toDtapLocated,
          filter,
          FileStatus::getPath,
          tap.errors());
    }
    iostats.increment(DataTapStatistics.BACKEND_LIST_LOCATED_CALLS);
    return new MappedIterator<>(
        call(() -> backend().listLocatedStatus(b)),
        tap::toDtapLocated,
        filter,
        FileStatus::getPath,
        tap.errors());
  }

  @Override
  public RemoteIterator<LocatedFileStatus> listFiles(Path f, boolean recursive)
      throws IOException {
    Path p = readable(f, Op.LIST_FILES);
    Path b = backendPath(p);
    if (!tap.hasLocalityResolver()) {
      iostats.increment(DataTapStatistics.BACKEND_LIST_LOCATED_CALLS);
    }
    // The backend's own listFiles keeps its flat listing (one LIST per 1000 keys on S3A);
    // with the resolver, toDtapLocated replaces the backend's locations.
    return new MappedIterator<>(
        call(() -> backend().listFiles(b, recursive)),
        tap::toDtapLocated,
        null,
        FileStatus::getPath,
        tap.errors());
  }

  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len)
      throws IOException {
    if (file == null) {
      return null;
    }
    if (start < 0 || len < 0) {
      throw new IllegalArgumentException("Invalid start or len parameter");
    }
    Path p = readable(file.getPath(), Op.GET_FILE_BLOCK_LOCATIONS);
    Path b = backendPath(p);
    if (file.getLen() <= start && file.getLen() != 0) {
      return new BlockLocation[0];
    }
    FileStatus backendStatus = backendStatusFor(file, b);
    return call(() -> tap.locations(backendStatus, start, len));
  }

  @Override
  public ContentSummary getContentSummary(Path f) throws IOException {
    Path p = readable(f, Op.GET_CONTENT_SUMMARY);
    Path b = backendPath(p);
    try {
      return backend().getContentSummary(b);
    } catch (FileNotFoundException e) {
      if (isRoot(p)) {
        return new ContentSummary.Builder().length(0).fileCount(0).directoryCount(1).build();
      }
      throw tap.errors().translate(e);
    } catch (IOException e) {
      throw tap.errors().translate(e);
    }
  }

  @Override
  public QuotaUsage getQuotaUsage(Path f) throws IOException {
    Path b = backendPath(readable(f, Op.GET_CONTENT_SUMMARY));
    return call(() -> backend().getQuotaUsage(b));
  }

  @Override
  public FileChecksum getFileChecksum(Path f) throws IOException {
    Path b = backendPath(readable(f, Op.GET_FILE_CHECKSUM));
    return call(() -> backend().getFileChecksum(b));
  }

  @Override
  public FileChecksum getFileChecksum(Path f, long length) throws IOException {
    Path b = backendPath(readable(f, Op.GET_FILE_CHECKSUM));
    return call(() -> backend().getFileChecksum(b, length));
  }

  @Override
  public Path resolvePath(Path f) throws IOException {
    Path b = backendPath(readable(f, Op.GET_FILE_STATUS));
    Path resolved = call(() -> backend().resolvePath(b));
    return tap.toDtap(resolved);
  }

  @Override
  public void access(Path f, FsAction mode) throws IOException {
    Path b = backendPath(readable(f, Op.GET_FILE_STATUS));
    call(
        () -> {
          backend().access(b, mode);
          return null;
        });
  }

  @Override
  public FsStatus getStatus(Path f) throws IOException {
    Path b = backendPath(readable(f == null ? new Path("/") : f, Op.GET_CONTENT_SUMMARY));
    return call(() -> backend().getStatus(b));
  }

  @Override
  public FsServerDefaults getServerDefaults(Path f) throws IOException {
    Path b = backendPath(makeQualified(f));
    return call(() -> backend().getServerDefaults(b));
  }

  @Override
  public long getDefaultBlockSize(Path f) {
    try {
      return backend().getDefaultBlockSize(backendPath(makeQualified(f)));
    } catch (IOException e) {
      return backend().getDefaultBlockSize();
    }
  }

  @Override
  public long getDefaultBlockSize() {
    return getDefaultBlockSize(new Path("/"));
  }

  @Override
  public short getDefaultReplication(Path f) {
    try {
      return backend().getDefaultReplication(backendPath(makeQualified(f)));
    } catch (IOException e) {
      return backend().getDefaultReplication();
    }
  }

  @Override
  public short getDefaultReplication() {
    return getDefaultReplication(new Path("/"));
  }

  @Override
  public byte[] getXAttr(Path f, String name) throws IOException {
    Path b = backendPath(readable(f, Op.XATTR));
    return call(() -> backend().getXAttr(b, name));
  }

  @Override
  public Map<String, byte[]> getXAttrs(Path f) throws IOException {
    Path b = backendPath(readable(f, Op.XATTR));
    return call(() -> backend().getXAttrs(b));
  }

  @Override
  public Map<String, byte[]> getXAttrs(Path f, List<String> names) throws IOException {
    Path b = backendPath(readable(f, Op.XATTR));
    return call(() -> backend().getXAttrs(b, names));
  }

  @Override
  public List<String> listXAttrs(Path f) throws IOException {
    Path b = backendPath(readable(f, Op.XATTR));
    return call(() -> backend().listXAttrs(b));
  }

  @Override
  public AclStatus getAclStatus(Path f) throws IOException {
    Path b = backendPath(readable(f, Op.GET_FILE_STATUS));
    return call(() -> backend().getAclStatus(b));
  }

  @Override
  public BlockStoragePolicySpi getStoragePolicy(Path f) throws IOException {
    Path b = backendPath(readable(f, Op.GET_FILE_STATUS));
    return call(() -> backend().getStoragePolicy(b));
  }

  @Override
  public Collection<? extends BlockStoragePolicySpi> getAllStoragePolicies() throws IOException {
    return call(() -> backend().getAllStoragePolicies());
  }

  @Override
  public RemoteIterator<Path> listCorruptFileBlocks(Path f) throws IOException {
    Path b = backendPath(readable(f, Op.LIST_STATUS));
    return new MappedIterator<>(
        call(() -> backend().listCorruptFileBlocks(b)), tap::toDtap, null, x -> x, tap.errors());
  }

  @Override
  public boolean hasPathCapability(Path f, String capability) throws IOException {
    Path p = makeQualified(f);
    Path b = backendPath(p);
    boolean readOnly = tap.config().readOnly();
    Boolean decided = PathCapabilities.decided(capability, readOnly, tap.hasLocalityResolver());
    if (decided != null) {
      return decided;
    }
    if (!PathCapabilities.supported(capability, readOnly)) {
      return false;
    }
    return call(() -> backend().hasPathCapability(b, capability));
  }

  @Override
  public void msync() throws IOException {
    call(
        () -> {
          backend().msync();
          return null;
        });
  }

  @Override
  public void setVerifyChecksum(boolean verifyChecksum) {
    backend().setVerifyChecksum(verifyChecksum);
  }

  @Override
  public void setWriteChecksum(boolean writeChecksum) {
    backend().setWriteChecksum(writeChecksum);
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
    Path p = writable(f, "create");
    iostats.increment(Op.CREATE);
    OutputHook hook = tap.hookFor(p);
    if (hook != null) {
      return call(() -> hook.create(p, overwrite));
    }
    Path b = backendPath(p);
    return wrapOut(
        call(
            () ->
                backend()
                    .create(
                        b, permission, overwrite, bufferSize, replication, blockSize, progress)),
        p);
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
    Path p = writable(f, "create");
    iostats.increment(Op.CREATE);
    OutputHook hook = tap.hookFor(p);
    if (hook != null && !flags.contains(CreateFlag.APPEND)) {
      return call(() -> hook.create(p, flags.contains(CreateFlag.OVERWRITE)));
    }
    Path b = backendPath(p);
    return wrapOut(
        call(
            () ->
                backend()
                    .create(
                        b,
                        permission,
                        flags,
                        bufferSize,
                        replication,
                        blockSize,
                        progress,
                        checksumOpt)),
        p);
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
    Path p = writable(f, "create");
    iostats.increment(Op.CREATE);
    OutputHook hook = tap.hookFor(p);
    if (hook != null && !flags.contains(CreateFlag.APPEND)) {
      return call(() -> hook.create(p, flags.contains(CreateFlag.OVERWRITE)));
    }
    Path b = backendPath(p);
    return wrapOut(
        call(
            () ->
                backend()
                    .createNonRecursive(
                        b, permission, flags, bufferSize, replication, blockSize, progress)),
        p);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    Path p = writable(f, "append");
    iostats.increment(Op.APPEND);
    Path b = backendPath(p);
    return wrapOut(call(() -> backend().append(b, bufferSize, progress)), p);
  }

  @Override
  public FSDataOutputStream append(
      Path f, int bufferSize, Progressable progress, boolean appendToNewBlock) throws IOException {
    Path p = writable(f, "append");
    iostats.increment(Op.APPEND);
    Path b = backendPath(p);
    return wrapOut(call(() -> backend().append(b, bufferSize, progress, appendToNewBlock)), p);
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
    Path p = writable(f, settings.isAppend() ? "append" : "create");
    iostats.increment(settings.isAppend() ? Op.APPEND : Op.CREATE);
    OutputHook hook = tap.hookFor(p);
    if (hook != null && !settings.isAppend()) {
      return call(() -> hook.create(p, settings.isOverwrite()));
    }
    Path b = backendPath(p);
    return wrapOut(
        call(
            () ->
                settings
                    .copyTo(settings.isAppend() ? backend().appendFile(b) : backend().createFile(b))
                    .build()),
        p);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    Path[] paths = renamePaths(src, dst);
    Path bs = backendPath(paths[0]);
    Path bd = backendPath(paths[1]);
    return call(() -> backend().rename(bs, bd));
  }

  @Override
  @SuppressWarnings("deprecation")
  protected void rename(Path src, Path dst, Options.Rename... options) throws IOException {
    Path[] paths = renamePaths(src, dst);
    Path bs = backendPath(paths[0]);
    Path bd = backendPath(paths[1]);
    call(
        () -> {
          FileUtil.rename(backend(), bs, bd, options);
          return null;
        });
  }

  private Path[] renamePaths(Path src, Path dst) throws IOException {
    String dstTap = dst.toUri().getAuthority();
    if (SCHEME.equalsIgnoreCase(dst.toUri().getScheme())
        && dstTap != null
        && !dstTap.equals(tap.name())) {
      throw new IOException(
          "Cannot rename "
              + makeQualified(src)
              + " to "
              + dst
              + ": the paths are on different taps ('"
              + tap.name()
              + "' and '"
              + dstTap
              + "'); rename never copies, copy the data instead (for example with distcp)");
    }
    Path s = writable(src, "rename");
    Path d = writable(dst, "rename");
    iostats.increment(Op.RENAME);
    return new Path[] {s, d};
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    Path p = writable(f, "delete");
    iostats.increment(Op.DELETE);
    Path b = backendPath(p);
    if (isRoot(p)) {
      return RootDelete.delete(backend(), b, recursive, p, tap.errors());
    }
    return call(() -> backend().delete(b, recursive));
  }

  @Override
  public boolean deleteOnExit(Path f) throws IOException {
    writable(f, "deleteOnExit");
    return super.deleteOnExit(f);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    Path p = writable(f, "mkdirs");
    iostats.increment(Op.MKDIRS);
    Path b = backendPath(p);
    return call(() -> backend().mkdirs(b, permission));
  }

  @Override
  public boolean truncate(Path f, long newLength) throws IOException {
    Path b = backendPath(writable(f, "truncate"));
    return call(() -> backend().truncate(b, newLength));
  }

  @Override
  public void concat(Path trg, Path[] psrcs) throws IOException {
    Path b = backendPath(writable(trg, "concat"));
    Path[] sources = new Path[psrcs.length];
    for (int i = 0; i < psrcs.length; i++) {
      sources[i] = backendPath(writable(psrcs[i], "concat"));
    }
    call(
        () -> {
          backend().concat(b, sources);
          return null;
        });
  }

  @Override
  public void setTimes(Path f, long mtime, long atime) throws IOException {
    Path b = backendPath(writable(f, "setTimes"));
    iostats.increment(Op.SET_ATTRIBUTES);
    call(
        () -> {
          backend().setTimes(b, mtime, atime);
          return null;
        });
  }

  @Override
  public void setPermission(Path f, FsPermission permission) throws IOException {
    Path b = backendPath(writable(f, "setPermission"));
    iostats.increment(Op.SET_ATTRIBUTES);
    call(
        () -> {
          backend().setPermission(b, permission);
          return null;
        });
  }

  @Override
  public void setOwner(Path f, String username, String groupname) throws IOException {
    Path b = backendPath(writable(f, "setOwner"));
    iostats.increment(Op.SET_ATTRIBUTES);
    call(
        () -> {
          backend().setOwner(b, username, groupname);
          return null;
        });
  }

  @Override
  public boolean setReplication(Path f, short replication) throws IOException {
    Path b = backendPath(writable(f, "setReplication"));
    iostats.increment(Op.SET_ATTRIBUTES);
    return call(() -> backend().setReplication(b, replication));
  }

  @Override
  public void setXAttr(Path f, String name, byte[] value, EnumSet<XAttrSetFlag> flag)
      throws IOException {
    Path b = backendPath(writable(f, "setXAttr"));
    iostats.increment(Op.XATTR);
    call(
        () -> {
          backend().setXAttr(b, name, value, flag);
          return null;
        });
  }

  @Override
  public void removeXAttr(Path f, String name) throws IOException {
    Path b = backendPath(writable(f, "removeXAttr"));
    iostats.increment(Op.XATTR);
    call(
        () -> {
          backend().removeXAttr(b, name);
          return null;
        });
  }

  @Override
  public void setAcl(Path f, List<AclEntry> aclSpec) throws IOException {
    Path b = backendPath(writable(f, "setAcl"));
    call(
        () -> {
          backend().setAcl(b, aclSpec);
          return null;
        });
  }

  @Override
  public void modifyAclEntries(Path f, List<AclEntry> aclSpec) throws IOException {
    Path b = backendPath(writable(f, "modifyAclEntries"));
    call(
        () -> {
          backend().modifyAclEntries(b, aclSpec);
          return null;
        });
  }

  @Override
  public void removeAclEntries(Path f, List<AclEntry> aclSpec) throws IOException {
    Path b = backendPath(writable(f, "removeAclEntries"));
    call(
        () -> {
          backend().removeAclEntries(b, aclSpec);
          return null;
        });
  }

  @Override
  public void removeDefaultAcl(Path f) throws IOException {
    Path b = backendPath(writable(f, "removeDefaultAcl"));
    call(
        () -> {
          backend().removeDefaultAcl(b);
          return null;
        });
  }

  @Override
  public void removeAcl(Path f) throws IOException {
    Path b = backendPath(writable(f, "removeAcl"));
    call(
        () -> {
          backend().removeAcl(b);
          return null;
        });
  }

  @Override
  public Path createSnapshot(Path f, String snapshotName) throws IOException {
    Path b = backendPath(writable(f, "createSnapshot"));
    return tap.toDtap(call(() -> backend().createSnapshot(b, snapshotName)));
  }

  @Override
  public void renameSnapshot(Path f, String oldName, String newName) throws IOException {
    Path b = backendPath(writable(f, "renameSnapshot"));
    call(
        () -> {
          backend().renameSnapshot(b, oldName, newName);
          return null;
        });
  }

  @Override
  public void deleteSnapshot(Path f, String snapshotName) throws IOException {
    Path b = backendPath(writable(f, "deleteSnapshot"));
    call(
        () -> {
          backend().deleteSnapshot(b, snapshotName);
          return null;
        });
  }

  @Override
  public void setStoragePolicy(Path f, String policyName) throws IOException {
    Path b = backendPath(writable(f, "setStoragePolicy"));
    call(
        () -> {
          backend().setStoragePolicy(b, policyName);
          return null;
        });
  }

  @Override
  public void unsetStoragePolicy(Path f) throws IOException {
    Path b = backendPath(writable(f, "unsetStoragePolicy"));
    call(
        () -> {
          backend().unsetStoragePolicy(b);
          return null;
        });
  }

  @Override
  public void satisfyStoragePolicy(Path f) throws IOException {
    Path b = backendPath(writable(f, "satisfyStoragePolicy"));
    call(
        () -> {
          backend().satisfyStoragePolicy(b);
          return null;
        });
  }

  @Override
  public void setQuota(Path f, long namespaceQuota, long storagespaceQuota) throws IOException {
    Path b = backendPath(writable(f, "setQuota"));
    call(
        () -> {
          backend().setQuota(b, namespaceQuota, storagespaceQuota);
          return null;
        });
  }

  @Override
  public void setQuotaByStorageType(Path f, StorageType type, long quota) throws IOException {
    Path b = backendPath(writable(f, "setQuotaByStorageType"));
    call(
        () -> {
          backend().setQuotaByStorageType(b, type, quota);
          return null;
        });
  }

  @Override
  public void createSymlink(Path target, Path link, boolean createParent) throws IOException {
    writable(link, "createSymlink");
    throw new UnsupportedOperationException(
        "dtap does not create symbolic links (" + makeQualified(link) + ")");
  }

  @Override
  public org.apache.hadoop.fs.MultipartUploaderBuilder createMultipartUploader(Path basePath)
      throws IOException {
    writable(basePath, "createMultipartUploader");
    throw new UnsupportedOperationException(
        "dtap does not expose the backend's multipart uploader (" + makeQualified(basePath) + ")");
  }

  // ---- tokens, statistics, lifecycle

  /** dtap issues no tokens of its own; the backend's are collected through the child list. */
  @Override
  public String getCanonicalServiceName() {
    return null;
  }

  @Override
  public FileSystem[] getChildFileSystems() {
    return tap == null ? null : new FileSystem[] {tap.backend()};
  }

  @Override
  public IOStatistics getIOStatistics() {
    return iostats;
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      Tap t = tap;
      if (t != null) {
        t.close();
      }
    }
  }

  @Override
  public String toString() {
    return "DataTapFileSystem{tap="
        + (tap == null ? "<uninitialised>" : tap.name() + ", backend=" + tap.config().root().getScheme())
        + "}";
  }
}
