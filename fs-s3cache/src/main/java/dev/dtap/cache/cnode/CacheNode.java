package dev.dtap.cache.cnode;

import dev.dtap.cache.disk.DiskEvents;
import dev.dtap.cache.disk.DiskIo;
import dev.dtap.cache.disk.DiskKeys;
import dev.dtap.cache.disk.DiskSettings;
import dev.dtap.cache.disk.DiskTier;
import dev.dtap.cache.disk.HostSightings;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.Closeable;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host's cache service (the cnode): one page cache per host, shared by every task JVM over a
 * Unix domain socket and by peer hosts over TCP. It owns the cache directories, their quota, index
 * and eviction; clients keep their credentials and read the backend themselves when the service
 * grants them a fill lease; cached pages are handed over as open file descriptors (short-circuit
 * reads) or as bytes.
 *
 * <p>Runs inside a YARN NodeManager ({@link CacheNodeAuxService}) or on its own ({@code dtap
 * cnode}). Thread-safe.
 */
public final class CacheNode implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(CacheNode.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Byte hits waiting for a read thread at most, over all connections. */
  static final int HIT_READS_QUEUED = 256;

  private final CnodeSettings settings;
  private final DiskTier disk;
  private final NodeMetrics metrics;
  private final FillTable fills = new FillTable();
  private final NodeRequests requests;
  private final ExecutorService diskPool;

  /**
   * Hits served as bytes read their page here, off the event loops, in a bounded queue: a hit that
   * finds it full is answered as a miss (the client reads the backend).
   */
  private final ThreadPoolExecutor hitReads;

  /** Sightings answers, on a thread of their own: never queued behind page writes. */
  private final ExecutorService sightingsThread;

  private final PeerLinks peers;
  private final Map<Long, ServerConnection> sessions = new ConcurrentHashMap<>();
  private final ServerTransport transport;
  private final HostSightings sightings;

  private CacheNode(CnodeSettings settings, DiskSettings diskSettings, DiskIo io)
      throws IOException {
    this.settings = settings;
    this.metrics = new NodeMetrics(settings.host());
    this.disk =
        new DiskTier(
            diskSettings,
            new DiskEvents() {
              @Override
              public void eviction() {
                metrics.evictions.increment();
              }

              @Override
              public void corruptPage() {
                metrics.corruptPages.increment();
              }

              @Override
              public void noRoom() {
                metrics.writesNoRoom.increment();
              }
            },
            io);
    try {
      disk.prepare();
    } catch (IOException e) {
      throw new IOException(
          "The cache service cannot prepare its directories (" + DiskKeys.DIRS.name() + "): " + e,
          e);
    }
    // a restarted service recovers the pages it had: the disk is the truth
    disk.scan();
    this.sightings = HostSightings.open(diskSettings.dirs().get(0));
    metrics.gauge("cnode_pages", disk::pages);
    metrics.gauge("cnode_bytes_used", disk::usedBytes);
    metrics.gauge("cnode_bytes_quota", disk::quotaBytes);
    metrics.gauge("cnode_fills_in_progress", fills::size);
    metrics.gauge("cnode_sessions", () -> sessions.size());
    this.diskPool =
        Executors.newFixedThreadPool(
            settings.diskThreads(), new DefaultThreadFactory("dtap-cnode-disk", true));
    this.hitReads =
        new ThreadPoolExecutor(
            2,
            2,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(HIT_READS_QUEUED),
            new DefaultThreadFactory("dtap-cnode-hits", true));
    this.sightingsThread =
        Executors.newSingleThreadExecutor(new DefaultThreadFactory("dtap-cnode-sightings", true));
    this.transport = new ServerTransport(this);
    this.peers = new PeerLinks(settings, transport.group());
    this.requests = new NodeRequests(this, fills, diskPool, peers);
    try {
      transport.start();
      metrics.register();
    } catch (IOException | RuntimeException e) {
      closeQuietly();
      throw e;
    }
    LOG.info(
        "dtap cnode: serving host {} on {} and TCP port {}; {} pages ({} bytes) on disk",
        settings.host(),
        settings.socket(),
        transport.tcpPort(),
        disk.pages(),
        disk.usedBytes());
  }

  /**
   * Starts a service: recovers the pages on disk, then listens.
   *
   * @param conf the service's configuration: {@code fs.dtap.cnode.*} and the cache's directories,
   *     quota and page keys ({@code fs.dtap.cache.dirs}, {@code fs.dtap.cache.max.size})
   * @return the running service; {@link #close()} stops it
   * @throws IOException if a setting is invalid (the message names the key), the directories cannot
   *     be prepared or a socket cannot be bound
   */
  public static CacheNode start(Configuration conf) throws IOException {
    return start(conf, DiskIo.NIO);
  }

  /**
   * Starts a service over the given file operations: tests inject a slow or failing disk.
   *
   * @param conf the service's configuration, as for {@link #start(Configuration)}
   * @param io the disk's file operations
   * @return the running service
   * @throws IOException as {@link #start(Configuration)}
   */
  static CacheNode start(Configuration conf, DiskIo io) throws IOException {
    CnodeSettings settings = CnodeSettings.forService(conf);
    return new CacheNode(settings, DiskSettings.parse(conf, 64 << 10), io);
  }

  CnodeSettings settings() {
    return settings;
  }

  /**
   * @return the service's timers: deadlines of work on other threads
   */
  ScheduledExecutorService timer() {
    return transport.group();
  }

  /**
   * @return where hits served as bytes read their page (bounded: rejects when full)
   */
  ExecutorService hitReads() {
    return hitReads;
  }

  DiskTier disk() {
    return disk;
  }

  /** What lone readers of the host met, for its clients' admission. */
  HostSightings sightings() {
    return sightings;
  }

  ExecutorService sightingsThread() {
    return sightingsThread;
  }

  NodeMetrics metrics() {
    return metrics;
  }

  boolean passesDescriptors() {
    return settings.shortCircuit() && transport.domainSocket() && RawDescriptors.AVAILABLE;
  }

  boolean hasRoom() {
    return disk.hasRoom();
  }

  /**
   * @return the TCP port the service listens on
   */
  public int port() {
    return transport.tcpPort();
  }

  /**
   * @return this host's name as the service announces it
   */
  public String host() {
    return settings.host();
  }

  /**
   * @return the counters and gauges, as the {@code stats} request and JMX show them
   */
  public Map<String, Long> stats() {
    return metrics.snapshot();
  }

  long register(ServerConnection c) {
    long id;
    do {
      id = RANDOM.nextLong();
    } while (id == 0 || sessions.putIfAbsent(id, c) != null);
    return id;
  }

  ServerConnection session(long id) {
    return sessions.get(id);
  }

  void dispatch(ServerConnection c, Frame f) throws ServerConnection.ProtocolException {
    requests.dispatch(c, f);
  }

  void closed(ServerConnection c) {
    sessions.remove(c.sessionId(), c);
    requests.closed(c);
  }

  /** Stops listening, ends every connection and waits for queued disk writes. */
  @Override
  public void close() {
    metrics.unregister();
    closeQuietly();
    LOG.info("dtap cnode: stopped serving host {}", settings.host());
  }

  private void closeQuietly() {
    transport.close();
    sightingsThread.shutdown();
    hitReads.shutdown();
    diskPool.shutdown();
    try {
      diskPool.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    disk.close();
    sightings.close();
  }
}
