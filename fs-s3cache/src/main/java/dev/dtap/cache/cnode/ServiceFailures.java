package dev.dtap.cache.cnode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsSystemImpl;
import org.apache.hadoop.metrics2.lib.Interns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the NodeManager's cache service failed to do, for the operator: each failure is logged with
 * its cause, counted (metrics2 source {@code CacheNodeService-<host>} in the {@code dtap-cnode}
 * system, as {@link #START_FAILURES} and {@link #STOP_FAILURES}), and a failed start leaves its
 * cause beside the configured socket ({@link #fileOf}), where {@code dtap doctor} on the host reads
 * it. Causes are the service's own messages, which name keys and paths, never secrets.
 *
 * <p>Thread-safe.
 */
final class ServiceFailures implements MetricsSource {
  static final String START_FAILURES = "cnode_service_start_failures";
  static final String STOP_FAILURES = "cnode_service_stop_failures";
  static final String RUNNING = "cnode_service_running";

  private static final Logger LOG = LoggerFactory.getLogger(ServiceFailures.class);
  private static final MetricsInfo RECORD =
      Interns.info("CacheNodeService", "The NodeManager's dtap cache service");
  private static final String SUFFIX = ".failure";

  private final LongAdder startFailures = new LongAdder();
  private final LongAdder stopFailures = new LongAdder();
  private volatile boolean running;
  private MetricsSystemImpl system;
  private String sourceName;

  /**
   * @param socket the configured socket path
   * @return where a failed start of the service on that socket leaves its cause
   */
  static Path fileOf(String socket) {
    return Paths.get(socket + SUFFIX);
  }

  /**
   * The cause a failed start left beside a socket.
   *
   * @param socket the configured socket path
   * @return the time and cause, if the last start of a NodeManager's service there failed
   */
  static Optional<String> lastStartFailure(String socket) {
    Path f = fileOf(socket);
    try {
      return Optional.of(new String(Files.readAllBytes(f), StandardCharsets.UTF_8).trim());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Registers the counters, named after the NodeManager's host. */
  synchronized void register(String host) {
    MetricsSystemImpl s = new MetricsSystemImpl();
    try {
      s.init(NodeMetrics.PREFIX);
      sourceName = "CacheNodeService-" + host;
      s.register(sourceName, "dtap cache service of the NodeManager on " + host, this);
      system = s;
    } catch (RuntimeException e) {
      // the counters are for the operator; their absence must not stop the service
      LOG.warn("Could not register the cache service's failure counters: {}", e.toString());
      s.shutdown();
    }
  }

  synchronized void unregister() {
    if (system != null) {
      system.unregisterSource(sourceName);
      system.shutdown();
      system = null;
    }
  }

  void started(Configuration conf) {
    running = true;
    String socket = socketOf(conf);
    if (socket != null) {
      try {
        Files.deleteIfExists(fileOf(socket));
      } catch (IOException e) {
        LOG.warn("Could not remove the record of an earlier failed start: {}", e.toString());
      }
    }
  }

  void startFailed(Configuration conf, Exception e) {
    startFailures.increment();
    running = false;
    LOG.error(
        "The dtap cache service did not start; this NodeManager serves containers without it, and"
            + " their tasks cache in their own JVMs: {}",
        e.toString(),
        e);
    String socket = socketOf(conf);
    if (socket == null) {
      return;
    }
    Path f = fileOf(socket);
    try {
      Path tmp = Files.createTempFile(f.toAbsolutePath().getParent(), ".cnode-failure", ".tmp");
      Files.write(tmp, (Instant.now() + " " + e + "\n").getBytes(StandardCharsets.UTF_8));
      readableByAll(tmp);
      Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException w) {
      LOG.warn("Could not record the failed start at {} for dtap doctor: {}", f, w.toString());
    }
  }

  void stopped() {
    running = false;
  }

  void stopFailed(RuntimeException e) {
    stopFailures.increment();
    running = false;
    LOG.error("The dtap cache service did not stop cleanly: {}", e.toString(), e);
  }

  long startFailures() {
    return startFailures.sum();
  }

  long stopFailures() {
    return stopFailures.sum();
  }

  boolean running() {
    return running;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    collector
        .addRecord(RECORD)
        .setContext(NodeMetrics.PREFIX)
        .addCounter(Interns.info(START_FAILURES, "Failed starts"), startFailures.sum())
        .addCounter(Interns.info(STOP_FAILURES, "Failed stops"), stopFailures.sum())
        .addGauge(Interns.info(RUNNING, "1 while the service serves"), running ? 1 : 0);
  }

  /** The cause holds no secret, and the operator running {@code dtap doctor} is another user. */
  private static void readableByAll(Path f) throws IOException {
    try {
      Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX filesystem: its default permissions stand
    }
  }

  private static String socketOf(Configuration conf) {
    String s = conf.getTrimmed(CnodeKeys.SOCKET.name());
    return s == null || s.isEmpty() ? null : s;
  }
}
