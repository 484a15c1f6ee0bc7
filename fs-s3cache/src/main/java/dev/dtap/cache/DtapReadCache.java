package dev.dtap.cache;

import dev.dtap.cache.disk.CacheDirectory;
import dev.dtap.fs.spi.LocalityResolver;
import dev.dtap.fs.spi.OpenRequest;
import dev.dtap.fs.spi.ReadCache;
import dev.dtap.fs.spi.TapContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * The read cache of one tap: opens files through the JVM's shared {@link PageStore}, keyed by the
 * file's version and the reader's scope, and publishes the tap's cache counters in the filesystem's
 * IOStatistics.
 *
 * <p>Thread-safe.
 */
final class DtapReadCache implements ReadCache, IOStatisticsSource, TapCacheAdmin {
  private final TapContext tap;
  private final PageStore store;
  private final String scope;
  private final CacheCounters counters;
  private final PageInspector admin;

  DtapReadCache(TapContext tap, PageStore store) throws IOException {
    this.tap = tap;
    this.store = store;
    this.scope = TenantScope.of(tap);
    this.counters = new CacheCounters(null, null);
    this.admin = new PageInspector(tap, store, this::identity);
  }

  private FileIdentity identity(FileStatus status) {
    return FileIdentity.of(tap.config().name(), scope, status, store.config().pageSize());
  }

  @Override
  public FSDataInputStream open(OpenRequest request) throws IOException {
    // with a status from the caller, no probe; without, the one the backend's open would make
    FileStatus status =
        request.backendStatus() != null
            ? request.backendStatus()
            : tap.backend().getFileStatus(request.backendPath());
    if (status.isDirectory()) {
      throw new FileNotFoundException("Cannot open directory " + request.dtapPath() + " to read");
    }
    BackendSource source =
        new BackendSource(tap.backend(), request.backendPath(), status, request.options());
    String policy = request.options().get(BackendSource.READ_POLICY);
    return new FSDataInputStream(
        new CachingInputStream(
            store,
            identity(status),
            source,
            counters,
            policy,
            owners(status),
            request.dtapPath().toString()));
  }

  /** Block owners by the tap's locality, when a cache service could ask them. */
  private PageOwners owners(FileStatus status) {
    if (store.config().cnode() == null) {
      return PageOwners.NONE;
    }
    Optional<LocalityResolver> resolver = tap.extension(LocalityResolver.class);
    if (!resolver.isPresent()) {
      return PageOwners.NONE;
    }
    LocalityResolver r = resolver.get();
    return offset -> r.owner(status, offset);
  }

  /**
   * @return the JVM's page store, for tests and benchmarks in this package
   */
  PageStore store() {
    return store;
  }

  @Override
  public CachedFile inspect(Path dtapPath) throws IOException {
    return admin.inspect(dtapPath);
  }

  @Override
  public CachedFile evict(Path dtapPath) throws IOException {
    return admin.evict(dtapPath);
  }

  @Override
  public List<CacheDirectory> directories() {
    return store.host().directories();
  }

  @Override
  public Map<String, Long> serviceStatistics() {
    return store.host().serviceStatistics();
  }

  @Override
  public void awaitWrites() throws InterruptedException {
    store.flush();
  }

  @Override
  public int pageSize() {
    return store.config().pageSize();
  }

  @Override
  public IOStatistics getIOStatistics() {
    return counters;
  }

  @Override
  public void close() {
    store.release();
  }
}
