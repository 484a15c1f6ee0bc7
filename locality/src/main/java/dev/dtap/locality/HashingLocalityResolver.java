package dev.dtap.locality;

import dev.dtap.fs.spi.LocalityResolver;
import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Block locations computed locally: each block of {@code blockSize} bytes is keyed by (tap, path,
 * block index) and placed on the consistent-hash ring of the cluster's hosts. No remote call, a
 * fraction of a microsecond per block, and the same answer on every node that knows the same hosts,
 * so the cache for a block and the tasks that read it meet on the same hosts.
 *
 * <p>Thread-safe.
 */
final class HashingLocalityResolver
    implements LocalityResolver, IOStatisticsSource, TapLocalityAdmin {
  private static final Logger LOG = LoggerFactory.getLogger(HashingLocalityResolver.class);
  private static final String[] NO_HOSTS = new String[0];

  static final String LOOKUPS = "dtap_locality_lookups";
  static final String FALLBACKS = "dtap_locality_fallbacks";
  static final String BACKEND_LOCATION_CALLS = "dtap_backend_location_calls";
  static final String MEMBERS = "dtap_locality_members";
  static final String REFRESHES = "dtap_locality_membership_refreshes";
  static final String REFRESH_FAILURES = "dtap_locality_membership_failures";

  private final TapContext tap;
  private final LocalityConfig config;
  private final MembershipTracker tracker;
  private final IOStatisticsStore stats;
  private final AtomicBoolean warnedFallback = new AtomicBoolean();
  private final LongAdder lookups = new LongAdder();
  private volatile LocationTemplates templates;

  HashingLocalityResolver(TapContext tap, LocalityConfig config, MembershipTracker tracker) {
    this.tap = tap;
    this.config = config;
    this.tracker = tracker;
    this.stats =
        IOStatisticsBinding.iostatisticsStore()
            .withCounters(LOOKUPS, FALLBACKS, BACKEND_LOCATION_CALLS, REFRESHES, REFRESH_FAILURES)
            .withGauges(MEMBERS)
            .build();
  }

  @Override
  public BlockLocation[] locate(FileStatus backendStatus, long start, long len) throws IOException {
    Membership m = tracker.awaitFirst(config.timeout());
    if (m == null) {
      return fallback(backendStatus, start, len);
    }
    lookups.increment();
    return locate(m, backendStatus.getPath().toUri().getPath(), backendStatus.getLen(), start, len);
  }

  /** The placement itself, for the given membership: a copy of a per-point template per block. */
  BlockLocation[] locate(Membership m, String path, long fileLength, long start, long len) {
    if (fileLength == 0) {
      return new BlockLocation[] {new BlockLocation(NO_HOSTS, NO_HOSTS, 0, 0)};
    }
    long end = Math.min(fileLength, start + len);
    if (start >= fileLength || end <= start) {
      return new BlockLocation[0];
    }
    long bs = config.blockSize();
    long first = start / bs;
    long last = (end - 1) / bs;
    BlockLocation[] out = new BlockLocation[(int) (last - first + 1)];
    LocationTemplates t = templates;
    if (t == null || t.membership() != m) {
      t = new LocationTemplates(m, config.replicas());
      templates = t;
    }
    long pathKey = PlacementHash.pathKey(tap.config().name(), path);
    for (long b = first; b <= last; b++) {
      long offset = b * bs;
      out[(int) (b - first)] =
          t.locate(PlacementHash.blockKey(pathKey, b), offset, Math.min(bs, fileLength - offset));
    }
    return out;
  }

  private BlockLocation[] fallback(FileStatus status, long start, long len) throws IOException {
    stats.incrementCounter(FALLBACKS);
    if (warnedFallback.compareAndSet(false, true)) {
      LOG.info(
          "dtap locality: membership for tap '{}' is not known yet; answering with {} locations"
              + " until it is",
          tap.config().name(),
          config.fallback() == LocalityConfig.Fallback.BACKEND ? "the backend's" : "host-less");
    }
    if (config.fallback() == LocalityConfig.Fallback.BACKEND) {
      stats.incrementCounter(BACKEND_LOCATION_CALLS);
      return tap.backend().getFileBlockLocations(status, start, len);
    }
    long fileLength = status.getLen();
    if (fileLength == 0) {
      return new BlockLocation[] {new BlockLocation(NO_HOSTS, NO_HOSTS, 0, 0)};
    }
    long end = Math.min(fileLength, start + len);
    if (start >= fileLength || end <= start) {
      return new BlockLocation[0];
    }
    long bs = config.blockSize();
    long first = start / bs;
    long last = (end - 1) / bs;
    BlockLocation[] out = new BlockLocation[(int) (last - first + 1)];
    for (long b = first; b <= last; b++) {
      long offset = b * bs;
      out[(int) (b - first)] =
          new BlockLocation(NO_HOSTS, NO_HOSTS, offset, Math.min(bs, fileLength - offset));
    }
    return out;
  }

  @Override
  public long blockSize(FileStatus backendStatus) {
    return config.blockSize();
  }

  @Override
  public String owner(FileStatus backendStatus, long offset) {
    String[] hosts = owners(backendStatus.getPath().toUri().getPath(), offset / config.blockSize());
    return hosts.length == 0 ? null : hosts[0];
  }

  /**
   * The hosts that own a block, for components (such as the read cache) that want to know whether a
   * block lives here; never waits.
   *
   * @param path the backend path
   * @param block the block index
   * @return the owners, empty before membership is known
   */
  String[] owners(String path, long block) {
    Membership m = tracker.current();
    if (m == null) {
      return NO_HOSTS;
    }
    int[] owners = new int[config.replicas()];
    int n =
        m.ring()
            .locate(
                PlacementHash.blockKey(PlacementHash.pathKey(tap.config().name(), path), block),
                owners);
    String[] hosts = new String[n];
    for (int i = 0; i < n; i++) {
      hosts[i] = m.host(owners[i]);
    }
    return hosts;
  }

  @Override
  public void refreshMembership(Duration timeout) throws IOException {
    tracker.refreshNow(timeout);
  }

  @Override
  public String membershipSource() {
    return tracker.source();
  }

  @Override
  public long membershipAgeMillis() {
    return tracker.ageMillis();
  }

  @Override
  public List<String> hosts() {
    Membership m = tracker.peek();
    return m == null ? Collections.emptyList() : m.hosts();
  }

  @Override
  public long placementBlockSize() {
    return config.blockSize();
  }

  @Override
  public IOStatistics getIOStatistics() {
    Membership m =
        tracker.peek(); // metrics are read at initialize: they must not start the tracker
    stats.setGauge(MEMBERS, m == null ? 0 : m.size());
    stats.setCounter(LOOKUPS, lookups.sum());
    stats.setCounter(REFRESHES, tracker.refreshes());
    stats.setCounter(REFRESH_FAILURES, tracker.failures());
    return stats;
  }

  @Override
  public void close() throws IOException {
    tracker.close();
  }
}
