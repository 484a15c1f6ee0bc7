package dev.dtap.cache.cnode;

import dev.dtap.cache.disk.CacheDirectory;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.impl.MetricsSystemImpl;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * The cache service's counters and gauges, as a Hadoop metrics2 source (JMX {@code
 * Hadoop:service=dtap-cnode,name=CacheNode-<host>}) and as the text of the {@code stats} request.
 *
 * <p>Thread-safe; counting is contention-free.
 */
final class NodeMetrics implements MetricsSource {
  static final String PREFIX = "dtap-cnode";
  private static final MetricsInfo RECORD = Interns.info("CacheNode", "The host's cache service");
  private static final MetricsInfo HOST = Interns.info("host", "The service's host");

  final LongAdder lookups = new LongAdder();
  final LongAdder hits = new LongAdder();
  final LongAdder misses = new LongAdder();
  final LongAdder fills = new LongAdder();
  final LongAdder fillWaits = new LongAdder();
  final LongAdder fillTimeouts = new LongAdder();
  final LongAdder leases = new LongAdder();
  final LongAdder shortCircuitGrants = new LongAdder();
  final LongAdder bytesServed = new LongAdder();
  final LongAdder bytesFilled = new LongAdder();
  final LongAdder peerServed = new LongAdder();
  final LongAdder peerAsked = new LongAdder();
  final LongAdder peerHits = new LongAdder();
  final LongAdder peerOffersSent = new LongAdder();
  final LongAdder offers = new LongAdder();
  final LongAdder authFailures = new LongAdder();
  final LongAdder handshakeTimeouts = new LongAdder();
  final LongAdder protocolErrors = new LongAdder();
  final LongAdder corruptPages = new LongAdder();
  final LongAdder evictions = new LongAdder();
  final LongAdder connections = new LongAdder();
  final LongAdder diskQueueFull = new LongAdder();
  final LongAdder writesAbandoned = new LongAdder();
  final LongAdder writesNoRoom = new LongAdder();
  final LongAdder hitsShed = new LongAdder();
  final LongAdder readsPaused = new LongAdder();

  private final String host;
  private final Map<String, LongSupplier> gauges = new LinkedHashMap<>();
  private MetricsSystem system;
  private String sourceName;

  NodeMetrics(String host) {
    this.host = host;
  }

  /** Adds a gauge read when metrics are taken. Call before {@link #register()}. */
  void gauge(String name, LongSupplier value) {
    gauges.put(name, value);
  }

  /** The counters and gauges by name, in a stable order. */
  Map<String, Long> snapshot() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("cnode_lookups", lookups.sum());
    m.put("cnode_hits", hits.sum());
    m.put("cnode_misses", misses.sum());
    m.put("cnode_fills", fills.sum());
    m.put("cnode_fill_waits", fillWaits.sum());
    m.put("cnode_fill_wait_timeouts", fillTimeouts.sum());
    m.put("cnode_fill_leases", leases.sum());
    m.put("cnode_short_circuit_grants", shortCircuitGrants.sum());
    m.put("cnode_bytes_served", bytesServed.sum());
    m.put("cnode_bytes_filled", bytesFilled.sum());
    m.put("cnode_peer_reads_served", peerServed.sum());
    m.put("cnode_peer_reads_asked", peerAsked.sum());
    m.put("cnode_peer_hits", peerHits.sum());
    m.put("cnode_peer_offers_sent", peerOffersSent.sum());
    m.put("cnode_offers", offers.sum());
    m.put("cnode_auth_failures", authFailures.sum());
    m.put("cnode_handshake_timeouts", handshakeTimeouts.sum());
    m.put("cnode_protocol_errors", protocolErrors.sum());
    m.put("cnode_corrupt_pages", corruptPages.sum());
    m.put("cnode_evictions", evictions.sum());
    m.put("cnode_connections", connections.sum());
    m.put("cnode_disk_queue_full", diskQueueFull.sum());
    m.put("cnode_writes_abandoned", writesAbandoned.sum());
    m.put("cnode_writes_no_room", writesNoRoom.sum());
    m.put("cnode_hits_shed", hitsShed.sum());
    m.put("cnode_reads_paused", readsPaused.sum());
    for (Map.Entry<String, LongSupplier> g : gauges.entrySet()) {
      m.put(g.getKey(), g.getValue().getAsLong());
    }
    return m;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord(RECORD).setContext(PREFIX).tag(HOST, host);
    for (Map.Entry<String, Long> e : snapshot().entrySet()) {
      if (gauges.containsKey(e.getKey())) {
        record.addGauge(Interns.info(e.getKey(), e.getKey()), e.getValue());
      } else {
        record.addCounter(Interns.info(e.getKey(), e.getKey()), e.getValue());
      }
    }
  }

  /** Registers the source in a metrics system of its own (one service per process). */
  synchronized void register() {
    MetricsSystemImpl s = new MetricsSystemImpl();
    s.init(PREFIX);
    sourceName = "CacheNode-" + host;
    s.register(sourceName, "dtap cache service of " + host, this);
    system = s;
  }

  synchronized void unregister() {
    if (system != null) {
      system.unregisterSource(sourceName);
      system.shutdown();
      system = null;
    }
  }

  /**
   * The {@code stats} answer: the host, every counter and gauge, and each cache directory as {@code
   * dir=pages,bytes,quota,usable,problem,path}. Stats every page file: call off the loops.
   */
  static String report(CacheNode node) {
    StringBuilder sb = new StringBuilder();
    sb.append("host=").append(node.settings().host()).append('\n');
    for (Map.Entry<String, Long> e : node.metrics().snapshot().entrySet()) {
      sb.append(e.getKey()).append('=').append(e.getValue()).append('\n');
    }
    for (Path dir : node.disk().settings().dirs()) {
      CacheDirectory d = CacheDirectory.inspect(node.disk().settings(), dir);
      sb.append("dir=")
          .append(d.pages())
          .append(',')
          .append(d.bytes())
          .append(',')
          .append(d.quotaBytes())
          .append(',')
          .append(d.usableBytes())
          .append(',')
          .append(d.problem() == null ? "" : d.problem())
          .append(',')
          .append(dir)
          .append('\n');
    }
    return sb.toString();
  }
}
