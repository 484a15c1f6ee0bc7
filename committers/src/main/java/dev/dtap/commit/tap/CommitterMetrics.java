package dev.dtap.commit.tap;

import dev.dtap.commit.store.StoreStatistics;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;

/**
 * The committers' counters of one tap, published in its filesystem's IOStatistics (and so in its
 * metrics2 source): jobs committed, aborted and recovered here, and the store's requests by
 * operation ({@code initiate} is an upload started, {@code upload_part} a part) and bytes uploaded.
 *
 * <p>Thread-safe.
 */
public final class CommitterMetrics implements IOStatisticsSource {
  static final String JOBS_COMMITTED = "dtap_committer_jobs_committed";
  static final String JOBS_ABORTED = "dtap_committer_jobs_aborted";
  static final String JOBS_RECOVERED = "dtap_committer_jobs_recovered";
  static final String BYTES_UPLOADED = "dtap_committer_bytes_uploaded";
  private static final String REQUESTS = "dtap_committer_requests_";

  private final LongAdder committed = new LongAdder();
  private final LongAdder aborted = new LongAdder();
  private final LongAdder recovered = new LongAdder();
  private final Supplier<StoreStatistics> store;
  private final IOStatisticsStore view;

  /**
   * @param store the tap's store statistics, or null while no store was made
   */
  CommitterMetrics(Supplier<StoreStatistics> store) {
    this.store = store;
    String[] names = new String[StoreStatistics.Op.values().length + 4];
    int i = 0;
    for (StoreStatistics.Op op : StoreStatistics.Op.values()) {
      names[i++] = requests(op);
    }
    names[i++] = BYTES_UPLOADED;
    names[i++] = JOBS_COMMITTED;
    names[i++] = JOBS_ABORTED;
    names[i] = JOBS_RECOVERED;
    this.view = IOStatisticsBinding.iostatisticsStore().withCounters(names).build();
  }

  static String requests(StoreStatistics.Op op) {
    return REQUESTS + op.name().toLowerCase(Locale.ROOT);
  }

  public void jobCommitted() {
    committed.increment();
  }

  public void jobAborted() {
    aborted.increment();
  }

  public void jobRecovered() {
    recovered.increment();
  }

  @Override
  public IOStatistics getIOStatistics() {
    StoreStatistics s = store.get();
    if (s != null) {
      for (StoreStatistics.Op op : StoreStatistics.Op.values()) {
        view.setCounter(requests(op), s.requests(op));
      }
      view.setCounter(BYTES_UPLOADED, s.bytesUploaded());
    }
    view.setCounter(JOBS_COMMITTED, committed.sum());
    view.setCounter(JOBS_ABORTED, aborted.sum());
    view.setCounter(JOBS_RECOVERED, recovered.sum());
    return view;
  }
}
