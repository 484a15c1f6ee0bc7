package dev.dtap.fs;

import dev.dtap.fs.config.DataTapKeys;
import dev.dtap.fs.config.TapConfig;
import dev.dtap.fs.spi.LocalityResolver;
import dev.dtap.fs.spi.LocalityResolverFactory;
import dev.dtap.fs.spi.OutputHook;
import dev.dtap.fs.spi.OutputHookFactory;
import dev.dtap.fs.spi.ReadCache;
import dev.dtap.fs.spi.ReadCacheFactory;
import dev.dtap.fs.spi.TapContext;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.security.AccessControlException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One opened tap: its private backend filesystem, path translation with containment, the read-only
 * guard, exception translation and the extensions enabled for it.
 *
 * <p>Thread-safe. The backend is private to this tap (created with {@link FileSystem#newInstance},
 * never taken from Hadoop's shared cache), so one tap's configuration and credentials can never
 * serve another tap; {@link #close()} closes it.
 */
final class Tap implements TapContext, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Tap.class);

  private final TapConfig config;
  private final Configuration siteConf;
  private final Configuration backendConf;
  private final FileSystem backend;
  private final PathMapper mapper;
  private final SymlinkGuard symlinks;
  private final LocalMetadata local;
  private final ExceptionTranslator errors;
  private final TapTraffic traffic = new TapTraffic();
  private final DataTapStatistics statistics;
  private final ReadCache cache;
  private final LocalityResolver locality;
  private final List<OutputHook> hooks;

  private Tap(
      TapConfig config,
      Configuration siteConf,
      Configuration backendConf,
      FileSystem backend,
      URI qualifiedRoot,
      DataTapStatistics statistics,
      Extensions extensions)
      throws IOException {
    this.config = config;
    this.siteConf = siteConf;
    this.backendConf = backendConf;
    this.backend = backend;
    this.mapper = new PathMapper(config.name(), qualifiedRoot);
    this.errors =
        new ExceptionTranslator(
            config.name(),
            qualifiedRoot,
            BackendAddresses.of(qualifiedRoot, backendConf),
            traffic::error);
    this.symlinks =
        config.checkSymlinks() && "file".equalsIgnoreCase(qualifiedRoot.getScheme())
            ? new SymlinkGuard(config.name(), mapper.rootPath())
            : null;
    this.local = LocalMetadata.forBackend(backend, new Path(qualifiedRoot));
    this.statistics = statistics;
    statistics.addSource(traffic);
    if (backend instanceof IOStatisticsSource) {
      statistics.addSource((IOStatisticsSource) backend);
    }
    this.cache = config.cacheEnabled() ? createCache(extensions) : null;
    this.locality = config.localityEnabled() ? createLocality(extensions) : null;
    // read-only taps get hooks too, so that extensions can find theirs and refuse with the tap's
    // reason; no write reaches a hook of a read-only tap (checkWritable runs first)
    this.hooks = createHooks(extensions);
  }

  /**
   * Opens a tap: builds its private configuration and backend.
   *
   * @param config the tap
   * @param siteConf the site configuration
   * @param statistics the owning filesystem's statistics
   * @param extensions the extensions on the class path
   * @param opener creates the backend
   * @return the opened tap
   * @throws IOException if the backend cannot be created or an extension fails to start
   */
  static Tap open(
      TapConfig config,
      Configuration siteConf,
      DataTapStatistics statistics,
      Extensions extensions,
      BackendOpener opener)
      throws IOException {
    Configuration backendConf = new Configuration(siteConf);
    for (Map.Entry<String, String> e : config.backendOverrides().entrySet()) {
      backendConf.set(e.getKey(), e.getValue(), "dtap tap " + config.name());
    }
    FileSystem backend;
    try {
      backend = opener.open(config.root(), backendConf);
    } catch (IOException | RuntimeException e) {
      // The backend's message may show its URI; say which tap failed instead, with the reason
      // (the innermost cause: reflection and wrapping layers say nothing)
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      ExceptionTranslator translator =
          new ExceptionTranslator(
              config.name(),
              config.root(),
              BackendAddresses.of(config.root(), backendConf),
              () -> {});
      IOException wrapped =
          new IOException(
              "Cannot open the backend of tap '"
                  + config.name()
                  + "' (a "
                  + config.root().getScheme()
                  + " URI, set by "
                  + DataTapKeys.TAP_URI.forTap(config.name())
                  + "): "
                  + translator.translate(e.toString())
                  + (root == e ? "" : "; cause: " + translator.translate(root.toString())));
      wrapped.setStackTrace(e.getStackTrace());
      throw wrapped;
    }
    try {
      URI qualifiedRoot = backend.makeQualified(new Path(config.root())).toUri();
      return new Tap(config, siteConf, backendConf, backend, qualifiedRoot, statistics, extensions);
    } catch (IOException | RuntimeException e) {
      backend.close();
      throw e;
    }
  }

  private ReadCache createCache(Extensions extensions) throws IOException {
    List<ReadCacheFactory> factories = extensions.readCaches();
    if (factories.isEmpty()) {
      throw new IOException(
          "Tap '"
              + config.name()
              + "' enables the read cache (fs.dtap.tap."
              + config.name()
              + ".cache or fs.dtap.cache.enabled) but no read cache is on the class path: add"
              + " dtap-fs-s3cache or use the dtap-hadoop jar");
    }
    return factories.get(0).create(this);
  }

  private LocalityResolver createLocality(Extensions extensions) throws IOException {
    List<LocalityResolverFactory> factories = extensions.localityResolvers();
    if (factories.isEmpty()) {
      throw new IOException(
          "Tap '"
              + config.name()
              + "' enables the locality resolver (fs.dtap.tap."
              + config.name()
              + ".locality or fs.dtap.locality.enabled) but none is on the class path: add"
              + " dtap-locality or use the dtap-hadoop jar");
    }
    return factories.get(0).create(this);
  }

  private List<OutputHook> createHooks(Extensions extensions) throws IOException {
    List<OutputHook> created = new ArrayList<>();
    for (OutputHookFactory f : extensions.outputHooks()) {
      created.add(f.create(this));
    }
    return Collections.unmodifiableList(created);
  }

  // ---- TapContext

  @Override
  public TapConfig config() {
    return config;
  }

  @Override
  public Configuration siteConfiguration() {
    return siteConf;
  }

  @Override
  public Configuration backendConfiguration() {
    return backendConf;
  }

  @Override
  public FileSystem backend() {
    return backend;
  }

  @Override
  public Path toBackend(Path dtapPath) throws IOException {
    Path p = mapper.toBackend(dtapPath);
    if (symlinks != null) {
      symlinks.check(dtapPath, p.toUri().getPath());
    }
    return p;
  }

  @Override
  public Path toDtap(Path backendPath) throws AccessControlException {
    return mapper.toDtap(backendPath);
  }

  @Override
  public void addStatisticsSource(IOStatisticsSource source) {
    statistics.addSource(source);
  }

  // ---- used by the filesystem

  String name() {
    return config.name();
  }

  PathMapper mapper() {
    return mapper;
  }

  /**
   * @return the tap's byte and failure counters
   */
  TapTraffic traffic() {
    return traffic;
  }

  ExceptionTranslator errors() {
    return errors;
  }

  DataTapStatistics statistics() {
    return statistics;
  }

  ReadCache cache() {
    return cache;
  }

  /**
   * The backend's status of a path: read directly on a tap over Hadoop's local filesystem (one
   * {@code stat}), else asked of the backend.
   *
   * @param backendPath a backend path that passed containment
   * @return the backend-shaped status
   * @throws IOException as the backend's {@code getFileStatus}
   */
  FileStatus statusOf(Path backendPath) throws IOException {
    FileStatus read = local == null ? null : local.status(backendPath);
    return read != null ? read : backend.getFileStatus(backendPath);
  }

  /**
   * The backend's listing of a path: read directly on a tap over Hadoop's local filesystem (one
   * {@code stat} per entry), else asked of the backend.
   *
   * @param backendPath a backend path that passed containment
   * @return the backend-shaped statuses
   * @throws IOException as the backend's {@code listStatus}
   */
  FileStatus[] listingOf(Path backendPath) throws IOException {
    FileStatus[] read = local == null ? null : local.list(backendPath);
    return read != null ? read : backend.listStatus(backendPath);
  }

  @Override
  public IOException hideBackend(IOException e) {
    return errors.rewrite(e);
  }

  /**
   * The extension object of a type created for this tap.
   *
   * @param type the type
   * @param <T> the type
   * @return the cache, resolver or hook that is an instance of it
   */
  @Override
  public <T> Optional<T> extension(Class<T> type) {
    List<Object> all = new ArrayList<>(hooks);
    all.add(cache);
    all.add(locality);
    for (Object o : all) {
      if (type.isInstance(o)) {
        return Optional.of(type.cast(o));
      }
    }
    return Optional.empty();
  }

  boolean hasLocalityResolver() {
    return locality != null;
  }

  /**
   * Refuses a mutation on a read-only tap before anything reaches the backend.
   *
   * @param dtapPath the path the caller named, for the message
   * @param operation the operation, for the message
   * @throws AccessControlException if the tap is read-only
   */
  void checkWritable(Path dtapPath, String operation) throws AccessControlException {
    if (config.readOnly()) {
      throw new AccessControlException(
          operation + " " + dtapPath + ": tap '" + config.name() + "' is read-only");
    }
  }

  /**
   * The hook that handles creating a file at a path, if any.
   *
   * @param dtapPath a qualified dtap path
   * @return the hook or null
   */
  OutputHook hookFor(Path dtapPath) {
    if (config.readOnly()) {
      return null;
    }
    for (OutputHook h : hooks) {
      if (h.handles(dtapPath)) {
        return h;
      }
    }
    return null;
  }

  /**
   * The block size to report for a file, the resolver's when it answers locations.
   *
   * @param backendStatus the backend status
   * @return the block size
   */
  long blockSize(FileStatus backendStatus) {
    return locality == null || backendStatus.isDirectory()
        ? backendStatus.getBlockSize()
        : locality.blockSize(backendStatus);
  }

  /**
   * Block locations of a backend file: from the resolver when enabled, else from the backend.
   *
   * @param backendStatus the backend's status of a file
   * @param start first byte
   * @param len length of the range
   * @return the locations
   * @throws IOException on failure
   */
  BlockLocation[] locations(FileStatus backendStatus, long start, long len) throws IOException {
    if (locality != null) {
      return locality.locate(backendStatus, start, len);
    }
    statistics.increment(DataTapStatistics.BACKEND_LOCATION_CALLS);
    return backend.getFileBlockLocations(backendStatus, start, len);
  }

  /** Translates a backend status, keeping the backend's object reachable. */
  FileStatus toDtapStatus(FileStatus backendStatus) throws AccessControlException {
    return toDtapStatus(backendStatus, mapper.toDtap(backendStatus.getPath()));
  }

  /** Translates a backend status whose dtap path the caller already knows. */
  FileStatus toDtapStatus(FileStatus backendStatus, Path dtapPath) {
    return new DataTapFileStatus(backendStatus, dtapPath, blockSize(backendStatus));
  }

  /** Translates a backend status with locations, computing them if the resolver is enabled. */
  LocatedFileStatus toDtapLocated(FileStatus backendStatus) throws IOException {
    BlockLocation[] locations;
    if (backendStatus.isDirectory()) {
      locations = null;
    } else if (locality == null && backendStatus instanceof LocatedFileStatus) {
      locations = ((LocatedFileStatus) backendStatus).getBlockLocations();
    } else {
      locations = locations(backendStatus, 0, backendStatus.getLen());
    }
    return new DataTapLocatedFileStatus(
        backendStatus, mapper.toDtap(backendStatus.getPath()), blockSize(backendStatus), locations);
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    List<Closeable> closeables = new ArrayList<>(hooks);
    closeables.add(cache);
    closeables.add(locality);
    closeables.add(backend);
    for (Closeable c : closeables) {
      if (c == null) {
        continue;
      }
      try {
        c.close();
      } catch (IOException e) {
        if (first == null) {
          first = errors.translate(e);
        } else {
          LOG.debug("Further failure closing tap {}", config.name(), errors.translate(e));
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Override
  public String toString() {
    return "Tap{" + config + "}";
  }
}
