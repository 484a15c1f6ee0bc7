package dev.dtap.locality;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the cluster membership current, refreshing it on a background daemon thread so that no
 * lookup ever waits on the network. One tracker per distinct membership configuration is shared by
 * every tap in the JVM (reference counted), so a JVM asks the ResourceManager once per interval,
 * not once per tap. A tracker whose lookups stop (a task JVM that never plans splits) refreshes
 * only at start and after the next lookup.
 *
 * <p>Thread-safe.
 */
final class MembershipTracker implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(MembershipTracker.class);
  private static final Map<String, MembershipTracker> SHARED = new HashMap<>();

  /** Refreshes to skip while nobody looks up: a busy JVM refreshes on schedule, an idle one not. */
  private static final int IDLE_REFRESHES = 10;

  private final String key;
  private final MembershipProvider provider;
  private final int vnodes;
  private final long refreshMillis;
  private final ScheduledExecutorService executor;
  private final AtomicReference<Membership> current = new AtomicReference<>();
  private final AtomicLong refreshes = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong lastLookup = new AtomicLong(System.nanoTime());
  private int references;
  private volatile boolean failing;
  private Set<String> lastHosts;
  private volatile long lastRefreshNanos;
  private volatile String lastError;

  private MembershipTracker(
      String key, MembershipProvider provider, int vnodes, long refreshMillis) {
    this.key = key;
    this.provider = provider;
    this.vnodes = vnodes;
    this.refreshMillis = refreshMillis;
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "dtap-locality-membership");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * The shared tracker for a configuration, created and started on first use.
   *
   * @param config the tap's locality settings
   * @param site the site configuration (ResourceManager settings)
   * @return the tracker; {@link #close()} it when done
   */
  static MembershipTracker acquire(LocalityConfig config, Configuration site) {
    String key = config.membershipKey(site);
    synchronized (SHARED) {
      MembershipTracker t = SHARED.get(key);
      if (t == null) {
        t =
            new MembershipTracker(
                key, provider(config, site), config.vnodes(), config.refresh().toMillis());
        SHARED.put(key, t);
        t.start(config.source() == LocalityConfig.Source.STATIC);
      }
      t.references++;
      return t;
    }
  }

  private static MembershipProvider provider(LocalityConfig config, Configuration site) {
    switch (config.source()) {
      case STATIC:
        return new StaticHosts(config.hosts());
      case FILE:
        return new HostsFile(config.hostsFile());
      default:
        return new YarnNodes(site, config.refresh().toMillis());
    }
  }

  private void start(boolean synchronous) {
    if (synchronous) {
      refresh(); // a static list needs no network: known before the first lookup
    }
    executor.scheduleWithFixedDelay(
        this::scheduledRefresh,
        synchronous ? refreshMillis : 0,
        refreshMillis,
        TimeUnit.MILLISECONDS);
  }

  private void scheduledRefresh() {
    long idleNanos = System.nanoTime() - lastLookup.get();
    boolean idle =
        current.get() != null
            && idleNanos > TimeUnit.MILLISECONDS.toNanos(refreshMillis * IDLE_REFRESHES);
    if (!idle) {
      refresh();
    }
  }

  /** Reads the provider once and swaps in a new membership when the hosts changed. */
  void refresh() {
    try {
      refreshOrThrow();
    } catch (IOException | RuntimeException | LinkageError e) {
      failures.incrementAndGet();
      lastError = e.getClass().getSimpleName() + ": " + e.getMessage();
      if (!failing) {
        failing = true;
        LOG.warn(
            "dtap locality: cannot read membership from {}: {}; keeping {}",
            provider.describe(),
            e.toString(),
            current.get() == null ? "the fallback" : "the last membership");
      }
    }
  }

  private void refreshOrThrow() throws IOException {
    Set<String> hosts = new HashSet<>(provider.hosts());
    refreshes.incrementAndGet();
    lastRefreshNanos = System.nanoTime();
    if (!hosts.equals(lastHosts)) {
      Membership m = Membership.of(hosts, vnodes, provider.describe());
      if (m.size() == 0) {
        LOG.warn(
            "dtap locality: {} lists no hosts; keeping the previous membership",
            provider.describe());
      } else {
        Membership previous = current.getAndSet(m);
        lastHosts = hosts;
        LOG.info(
            "dtap locality: membership is now {} (was {})",
            m,
            previous == null ? "unknown" : previous);
      }
    }
    lastError = null;
    if (failing) {
      failing = false;
      LOG.info("dtap locality: {} answers again", provider.describe());
    }
  }

  /**
   * Reads the source now, on the refresh thread (the only thread that calls the provider), and
   * waits for the answer: for operators' tools that report the membership a fresh JVM sees.
   *
   * @param timeout how long to wait
   * @throws IOException if the source cannot be read (the message says why) or does not answer in
   *     time
   */
  void refreshNow(Duration timeout) throws IOException {
    Future<?> f =
        executor.submit(
            () -> {
              refresh();
              return null;
            });
    try {
      f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted reading " + provider.describe());
    } catch (ExecutionException e) {
      throw new IOException(
          "cannot read " + provider.describe() + ": " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      f.cancel(true);
      throw new IOException(provider.describe() + " did not answer within " + timeout);
    }
    String error = lastError;
    if (error != null) {
      throw new IOException("cannot read membership from " + provider.describe() + ": " + error);
    }
  }

  /**
   * @return what the membership comes from, e.g. the ResourceManager's address
   */
  String source() {
    return provider.describe();
  }

  /**
   * @return milliseconds since the source last answered, or -1 when it never did
   */
  long ageMillis() {
    long at = lastRefreshNanos;
    return at == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - at);
  }

  /**
   * @return the membership without counting a lookup, or null before it is known
   */
  Membership peek() {
    return current.get();
  }

  /**
   * The current membership; never blocks.
   *
   * @return the membership, or null before it is first known
   */
  Membership current() {
    long now = System.nanoTime();
    long before = lastLookup.getAndSet(now);
    if (now - before > TimeUnit.MILLISECONDS.toNanos(refreshMillis * IDLE_REFRESHES)
        && now - lastRefreshNanos > TimeUnit.MILLISECONDS.toNanos(refreshMillis)) {
      executor.execute(this::refresh); // waking from idle: refresh soon, answer now
    }
    return current.get();
  }

  long refreshes() {
    return refreshes.get();
  }

  long failures() {
    return failures.get();
  }

  @Override
  public void close() throws IOException {
    synchronized (SHARED) {
      if (--references > 0) {
        return;
      }
      SHARED.remove(key);
    }
    executor.shutdownNow();
    provider.close();
  }
}
