package dev.dtap.fs;

import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;

/**
 * What one tap moved and how often its backend failed: bytes read through its streams, bytes
 * written, and backend failures other than "not found" (a missing path is an answer, not a fault).
 * Hadoop's own {@code FileSystem.Statistics} are per scheme, shared by every tap; these are the
 * tap's. Published in the filesystem's IOStatistics and so in its metrics.
 *
 * <p>Thread-safe: counters are adders, read on demand.
 */
final class TapTraffic implements IOStatisticsSource {
  static final String BYTES_READ = "dtap_bytes_read";
  static final String BYTES_WRITTEN = "dtap_bytes_written";
  static final String ERRORS = "dtap_errors";

  private final LongAdder read = new LongAdder();
  private final LongAdder written = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final IOStatisticsStore view =
      IOStatisticsBinding.iostatisticsStore()
          .withCounters(BYTES_READ, BYTES_WRITTEN, ERRORS)
          .build();

  void read(long bytes) {
    read.add(bytes);
  }

  void written(long bytes) {
    written.add(bytes);
  }

  void error() {
    errors.increment();
  }

  @Override
  public IOStatistics getIOStatistics() {
    view.setCounter(BYTES_READ, read.sum());
    view.setCounter(BYTES_WRITTEN, written.sum());
    view.setCounter(ERRORS, errors.sum());
    return view;
  }
}
