package dev.dtap.fs;

import dev.dtap.fs.config.DataTapConfig;
import dev.dtap.fs.config.DataTapKeys;
import dev.dtap.fs.config.TapConfig;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsLogging;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle and metadata half of {@link DataTapFileSystem}: binding to a tap, paths and the
 * working directory, capabilities, attributes, tokens, statistics and close. Split off only to keep
 * each class readable; {@link DataTapFileSystem} is the public type.
 */
abstract class TapFileSystemBase extends FileSystem implements IOStatisticsSource {
  private final DataTapStatistics iostats = new DataTapStatistics();
  private final BackendOpener opener;
  private URI uri;
  Tap tap;
  private Path workingDir;
  private String user;
  ReadOperations reads;
  ListingOperations listings;
  WriteOperations writes;
  AttributeOperations attributes;
  OpContext ctx;
  private TapMetrics metrics;

  TapFileSystemBase(BackendOpener opener) {
    this.opener = opener;
  }

  /**
   * Binds this instance to the tap named by the URI's authority and opens the tap's backend.
   *
   * @throws FileNotFoundException if no such tap is configured (the message lists the taps)
   * @throws org.apache.hadoop.fs.InvalidPathException never; malformed keys raise {@link
   *     dev.dtap.fs.config.InvalidConfigurationException}
   * @throws IOException if the URI names no tap, the configuration is invalid, or the backend
   *     cannot be opened
   */
  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    String tapName = name.getAuthority();
    Extensions extensions = Extensions.discover();
    DataTapConfig config = DataTapConfig.parse(conf, extensions.keys());
    if (tapName == null || tapName.isEmpty()) {
      throw new IOException(
          "A dtap URI must name a tap, as in dtap://<tap>/path (got "
              + name
              + "); configured taps: "
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
    this.uri = URI.create(DataTapFileSystem.SCHEME + "://" + tapName);
    this.user = UserGroupInformation.getCurrentUser().getShortUserName();
    this.tap = Tap.open(tapConfig, conf, iostats, extensions, opener);
    if (DataTapKeys.METRICS_ENABLED.get(conf)) {
      this.metrics = TapMetrics.register(tapName, iostats);
    }
    this.ctx = new OpContext(this, tap, statistics, iostats, user);
    this.reads = new ReadOperations(ctx);
    this.listings = new ListingOperations(ctx);
    this.writes = new WriteOperations(ctx);
    this.attributes = new AttributeOperations(ctx);
    this.workingDir = getHomeDirectory();
  }

  @Override
  public String getScheme() {
    return DataTapFileSystem.SCHEME;
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  protected int getDefaultPort() {
    return -1;
  }

  /** As Hadoop's check, with a message that names both taps when a path is on another tap. */
  @Override
  protected void checkPath(Path path) {
    URI p = path.toUri();
    if (DataTapFileSystem.SCHEME.equalsIgnoreCase(p.getScheme())
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

  /**
   * @return the tap this filesystem serves, for tests in this package
   */
  Tap tap() {
    return tap;
  }

  @Override
  public boolean hasPathCapability(Path f, String capability) throws IOException {
    Path b = ctx.toBackend(makeQualified(f));
    boolean readOnly = tap.config().readOnly();
    Boolean decided = PathCapabilities.decided(capability, readOnly, tap.hasLocalityResolver());
    if (decided != null) {
      return decided;
    }
    return PathCapabilities.supported(capability, readOnly)
        && ctx.call(b, () -> tap.backend().hasPathCapability(b, capability));
  }

  @Override
  public long getDefaultBlockSize(Path f) {
    try {
      return tap.backend().getDefaultBlockSize(ctx.toBackend(makeQualified(f)));
    } catch (IOException e) {
      return tap.backend().getDefaultBlockSize();
    }
  }

  @Override
  public long getDefaultBlockSize() {
    return getDefaultBlockSize(new Path("/"));
  }

  @Override
  public short getDefaultReplication(Path f) {
    try {
      return tap.backend().getDefaultReplication(ctx.toBackend(makeQualified(f)));
    } catch (IOException e) {
      return tap.backend().getDefaultReplication();
    }
  }

  @Override
  public short getDefaultReplication() {
    return getDefaultReplication(new Path("/"));
  }

  @Override
  public void msync() throws IOException {
    ctx.run(() -> tap.backend().msync());
  }

  @Override
  public void setVerifyChecksum(boolean verifyChecksum) {
    tap.backend().setVerifyChecksum(verifyChecksum);
  }

  @Override
  public void setWriteChecksum(boolean writeChecksum) {
    tap.backend().setWriteChecksum(writeChecksum);
  }

  // ---- metadata

  @Override
  public void setTimes(Path f, long mtime, long atime) throws IOException {
    attributes.setTimes(f, mtime, atime);
  }

  @Override
  public void setPermission(Path f, FsPermission permission) throws IOException {
    attributes.setPermission(f, permission);
  }

  @Override
  public void setOwner(Path f, String username, String groupname) throws IOException {
    attributes.setOwner(f, username, groupname);
  }

  @Override
  public boolean setReplication(Path f, short replication) throws IOException {
    return attributes.setReplication(f, replication);
  }

  @Override
  public void setXAttr(Path f, String name, byte[] value, EnumSet<XAttrSetFlag> flag)
      throws IOException {
    attributes.setXAttr(f, name, value, flag);
  }

  @Override
  public void removeXAttr(Path f, String name) throws IOException {
    attributes.removeXAttr(f, name);
  }

  @Override
  public byte[] getXAttr(Path f, String name) throws IOException {
    return attributes.getXAttr(f, name);
  }

  @Override
  public Map<String, byte[]> getXAttrs(Path f) throws IOException {
    return attributes.getXAttrs(f, null);
  }

  @Override
  public Map<String, byte[]> getXAttrs(Path f, List<String> names) throws IOException {
    return attributes.getXAttrs(f, names);
  }

  @Override
  public List<String> listXAttrs(Path f) throws IOException {
    return attributes.listXAttrs(f);
  }

  @Override
  public void setAcl(Path f, List<AclEntry> aclSpec) throws IOException {
    attributes.setAcl(f, aclSpec);
  }

  @Override
  public void modifyAclEntries(Path f, List<AclEntry> aclSpec) throws IOException {
    attributes.modifyAclEntries(f, aclSpec);
  }

  @Override
  public void removeAclEntries(Path f, List<AclEntry> aclSpec) throws IOException {
    attributes.removeAclEntries(f, aclSpec);
  }

  @Override
  public void removeDefaultAcl(Path f) throws IOException {
    attributes.removeDefaultAcl(f);
  }

  @Override
  public void removeAcl(Path f) throws IOException {
    attributes.removeAcl(f);
  }

  @Override
  public AclStatus getAclStatus(Path f) throws IOException {
    return attributes.getAclStatus(f);
  }

  @Override
  public void access(Path f, FsAction mode) throws IOException {
    attributes.access(f, mode);
  }

  @Override
  public Path createSnapshot(Path f, String snapshotName) throws IOException {
    return attributes.createSnapshot(f, snapshotName);
  }

  @Override
  public void renameSnapshot(Path f, String oldName, String newName) throws IOException {
    attributes.renameSnapshot(f, oldName, newName);
  }

  @Override
  public void deleteSnapshot(Path f, String snapshotName) throws IOException {
    attributes.deleteSnapshot(f, snapshotName);
  }

  @Override
  public void setStoragePolicy(Path f, String policyName) throws IOException {
    attributes.setStoragePolicy(f, policyName);
  }

  @Override
  public void unsetStoragePolicy(Path f) throws IOException {
    attributes.unsetStoragePolicy(f);
  }

  @Override
  public void satisfyStoragePolicy(Path f) throws IOException {
    attributes.satisfyStoragePolicy(f);
  }

  @Override
  public BlockStoragePolicySpi getStoragePolicy(Path f) throws IOException {
    return attributes.getStoragePolicy(f);
  }

  @Override
  public Collection<? extends BlockStoragePolicySpi> getAllStoragePolicies() throws IOException {
    return ctx.call(() -> tap.backend().getAllStoragePolicies());
  }

  @Override
  public void setQuota(Path f, long namespaceQuota, long storagespaceQuota) throws IOException {
    attributes.setQuota(f, namespaceQuota, storagespaceQuota);
  }

  @Override
  public void setQuotaByStorageType(Path f, StorageType type, long quota) throws IOException {
    attributes.setQuotaByStorageType(f, type, quota);
  }

  @Override
  public QuotaUsage getQuotaUsage(Path f) throws IOException {
    return attributes.getQuotaUsage(f);
  }

  @Override
  public FileChecksum getFileChecksum(Path f) throws IOException {
    return attributes.getFileChecksum(f, null);
  }

  @Override
  public FileChecksum getFileChecksum(Path f, long length) throws IOException {
    return attributes.getFileChecksum(f, length);
  }

  @Override
  public FsStatus getStatus(Path f) throws IOException {
    return attributes.getStatus(f == null ? new Path("/") : f);
  }

  @Override
  public FsServerDefaults getServerDefaults(Path f) throws IOException {
    return attributes.getServerDefaults(f);
  }

  // ---- tokens, statistics, lifecycle

  /** dtap issues no tokens of its own; the backend's are collected through the child list. */
  @Override
  public String getCanonicalServiceName() {
    return null;
  }

  /** The tap's backend: Hadoop collects delegation tokens from it for jobs that use this tap. */
  @Override
  public FileSystem[] getChildFileSystems() {
    return tap == null ? null : new FileSystem[] {tap.backend()};
  }

  /**
   * dtap's own counters (operations, backend location calls) merged with the backend's and the
   * extensions' live statistics.
   */
  @Override
  public IOStatistics getIOStatistics() {
    return iostats;
  }

  /**
   * Closes the tap's backend and extensions; deletes paths registered with deleteOnExit first. At
   * close the filesystem's statistics are logged at the level Hadoop's {@code
   * fs.iostatistics.logging.level} names (as S3A does), so a job's client log can show them.
   */
  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      TapMetrics m = metrics;
      if (m != null) {
        m.unregister();
      }
      Tap t = tap;
      if (t != null) {
        Configuration c = getConf();
        String level = c == null ? null : c.getTrimmed(IOSTATISTICS_LOGGING_LEVEL);
        if (level != null) {
          IOStatisticsLogging.logIOStatisticsAtLevel(STATS_LOG, level, iostats);
        }
        t.close();
      }
    }
  }

  /** Hadoop's key for the level at which filesystems log their statistics at close. */
  static final String IOSTATISTICS_LOGGING_LEVEL = "fs.iostatistics.logging.level";

  private static final Logger STATS_LOG = LoggerFactory.getLogger(TapFileSystemBase.class);

  @Override
  public String toString() {
    return "DataTapFileSystem{tap="
        + (tap == null
            ? "<uninitialised>"
            : tap.name() + ", backend=" + tap.config().root().getScheme())
        + "}";
  }
}
