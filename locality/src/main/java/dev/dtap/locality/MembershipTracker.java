package dev.dtap.locality;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the cluster membership current, refreshing it on a background daemon thread. One tracker
 * per distinct membership configuration is shared by every tap in the JVM (reference counted), so a
 * JVM asks the ResourceManager once per interval, not once per tap. Nothing is asked before the
 * first lookup: a JVM that lists, opens and reads but never plans splits ({@code hadoop fs -ls}, a
 * task) makes no call to the source. Split planning waits for the first answer at most once per JVM
 * and at most the timeout in all; every other lookup answers with what is known. A membership an
 * earlier JVM of the same user read from the ResourceManager ({@link MembershipState}) spares the
 * wait while it is younger than the idle window. A tracker whose lookups stop refreshes again only
 * after the next lookup.
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
  private final AtomicBoolean started = new AtomicBoolean();
  private final boolean local;
  private final MembershipState state;
  private final CountDownLatch firstAnswer = new CountDownLatch(1);
  private final AtomicLong firstWaitEnds = new AtomicLong(Long.MIN_VALUE);
  private int references;
  private volatile boolean failing;
  private Set<String> lastHosts;
  private volatile long lastRefreshNanos;
  private volatile String lastError;

  private MembershipTracker(
      String key,
      MembershipProvider provider,
      boolean local,
      MembershipState state,
      int vnodes,
      long refreshMillis) {
    this.key = key;
    this.local = local;
    this.state = state;
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
   * The shared tracker for a configuration, created on first use; it reads its source only from the
   * first lookup on.
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
                key,
                provider(config, site),
                config.source() == LocalityConfig.Source.STATIC,
                config.source() == LocalityConfig.Source.YARN
                    ? MembershipState.forUser(site, key)
                    : null,
                config.vnodes(),
                config.refresh().toMillis());
        SHARED.put(key, t);
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
        return new YarnNodes(site, config.timeout());
    }
  }

  private void startOnce() {
    if (!started.compareAndSet(false, true)) {
      return;
    }
    long firstDelay = 0;
    if (local) {
      refresh(); // a static list needs no network: known before the first lookup returns
      firstDelay = refreshMillis;
    } else if (state != null) {
      // what an earlier JVM of this user read: planning uses it at once; the source is read when
      // the answer is a refresh interval old, at once if it already is (an answer older than the
      // idle window is not used, and planning waits for the source as without it)
      long now = System.currentTimeMillis();
      MembershipState.Saved saved = state.load(now, refreshMillis * IDLE_REFRESHES);
      if (saved != null) {
        long age = Math.max(0, now - saved.savedAtMillis());
        adopt(saved.hosts(), provider.describe() + ", saved " + age + " ms ago");
        lastRefreshNanos = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(age);
        firstAnswer.countDown();
        firstDelay = Math.max(0, refreshMillis - age);
      }
    }
    executor.scheduleWithFixedDelay(
        this::scheduledRefresh, firstDelay, refreshMillis, TimeUnit.MILLISECONDS);
  }

  private void adopt(Collection<String> hosts, String source) {
    lastHosts = new HashSet<>(hosts);
    current.set(Membership.of(hosts, vnodes, source));
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
      recordFailure(e);
    } finally {
      firstAnswer.countDown();
    }
  }

  private void recordFailure(Throwable e) {
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

  private void refreshOrThrow() throws IOException {
    long asked = System.nanoTime();
    Set<String> hosts = new HashSet<>(provider.hosts());
    refreshes.incrementAndGet();
    lastRefreshNanos = System.nanoTime();
    if (state != null && !hosts.isEmpty()) {
      state.save(hosts);
    }
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
            "dtap locality: membership is now {} (was {}), read in {} ms",
            m,
            previous == null ? "unknown" : previous,
            TimeUnit.NANOSECONDS.toMillis(lastRefreshNanos - asked));
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
      throw new InterruptedIOException("interrupted reading " + provider.describe());
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
    startOnce();
    long now = System.nanoTime();
    long before = lastLookup.getAndSet(now);
    if (now - before > TimeUnit.MILLISECONDS.toNanos(refreshMillis * IDLE_REFRESHES)
        && now - lastRefreshNanos > TimeUnit.MILLISECONDS.toNanos(refreshMillis)) {
      executor.execute(this::refresh); // waking from idle: refresh soon, answer now
    }
    return current.get();
  }

  /**
   * The current membership for split planning: before the source first answered, waits for that
   * answer, but no longer than {@code timeout} after the first such wait in this JVM began, so a
   * JVM spends at most the timeout in all waiting on a source that is down or slow.
   *
   * @param timeout the tap's locality timeout
   * @return the membership, or null when it is still not known
   * @throws InterruptedIOException if the caller is interrupted while waiting
   */
  Membership awaitFirst(Duration timeout) throws InterruptedIOException {
    Membership m = current();
    if (m != null || firstAnswer.getCount() == 0) {
      return m;
    }
    long now = System.nanoTime();
    firstWaitEnds.compareAndSet(Long.MIN_VALUE, now + timeout.toNanos());
    long left = firstWaitEnds.get() - now;
    try {
      if (left > 0) {
        firstAnswer.await(left, TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for " + provider.describe());
    }
    return this.current.get();
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
