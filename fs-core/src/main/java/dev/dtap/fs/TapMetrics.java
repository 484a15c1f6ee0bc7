package dev.dtap.fs;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.impl.MetricsSystemImpl;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * One dtap filesystem as a Hadoop metrics2 source: every counter and gauge of its IOStatistics
 * (operations, bytes and errors of the tap, and the counters its cache, locality resolver and
 * committers publish), tagged with the tap. Sinks configured in {@code
 * hadoop-metrics2-dtap.properties} receive them, and JMX shows them as {@code
 * Hadoop:service=dtap,name=DtapFileSystem-<tap>-<n>}.
 *
 * <p>Hadoop's metrics are per process, so the metrics system is one per JVM, created on first use;
 * it holds only the sources of open filesystems, each removed when its filesystem closes.
 * Thread-safe.
 */
final class TapMetrics implements MetricsSource {
  /** The metrics system's prefix: the service in JMX names and the properties file's name. */
  static final String PREFIX = "dtap";

  private static final Object LOCK = new Object();
  private static final AtomicInteger SEQUENCE = new AtomicInteger();
  private static MetricsSystem system;

  private static final MetricsInfo RECORD = Interns.info("DtapFileSystem", "A dtap filesystem");
  private static final MetricsInfo TAP = Interns.info("tap", "The tap the filesystem serves");

  private final String tap;
  private final IOStatistics statistics;
  private final String name;

  private TapMetrics(String tap, IOStatistics statistics, String name) {
    this.tap = tap;
    this.statistics = statistics;
    this.name = name;
  }

  /**
   * Registers a filesystem's statistics as a source.
   *
   * @param tap the tap name
   * @param statistics the filesystem's live statistics
   * @return the registration; {@link #unregister()} it when the filesystem closes
   */
  static TapMetrics register(String tap, IOStatistics statistics) {
    TapMetrics m =
        new TapMetrics(
            tap, statistics, RECORD.name() + "-" + tap + "-" + SEQUENCE.incrementAndGet());
    synchronized (LOCK) {
      if (system == null) {
        MetricsSystemImpl s = new MetricsSystemImpl();
        s.init(PREFIX);
        system = s;
      }
      system.register(m.name, "dtap filesystem of tap " + tap, m);
    }
    return m;
  }

  /**
   * @return the source's name, the {@code name} of its JMX object
   */
  String name() {
    return name;
  }

  /** Removes the source; its JMX object goes with it. */
  void unregister() {
    synchronized (LOCK) {
      if (system != null) {
        system.unregisterSource(name);
      }
    }
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord(RECORD).setContext(PREFIX).tag(TAP, tap);
    for (Map.Entry<String, Long> e : statistics.counters().entrySet()) {
      record.addCounter(Interns.info(e.getKey(), e.getKey()), e.getValue());
    }
    for (Map.Entry<String, Long> e : statistics.gauges().entrySet()) {
      record.addGauge(Interns.info(e.getKey(), e.getKey()), e.getValue());
    }
  }
}
