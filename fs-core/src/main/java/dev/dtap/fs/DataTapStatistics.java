package dev.dtap.fs;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.MeanStatistic;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;

/**
 * The IOStatistics of one dtap filesystem: dtap's own counters (operations, backend location calls,
 * locality fallbacks) merged with the live statistics of the backend and of the extensions. Values
 * with the same name are added up.
 *
 * <p>Thread-safe: counters are atomic, the view is recomputed on each call.
 */
final class DataTapStatistics implements IOStatistics {
  /** Calls dtap made to the backend's {@code getFileBlockLocations}. */
  static final String BACKEND_LOCATION_CALLS = "dtap_backend_location_calls";

  /** Calls dtap made to the backend's {@code listLocatedStatus}. */
  static final String BACKEND_LIST_LOCATED_CALLS = "dtap_backend_list_located_calls";

  private final IOStatisticsStore own;
  private final List<IOStatisticsSource> sources = new CopyOnWriteArrayList<>();

  DataTapStatistics() {
    String[] counters = new String[Op.values().length + 2];
    int i = 0;
    for (Op op : Op.values()) {
      counters[i++] = op.counter();
    }
    counters[i++] = BACKEND_LOCATION_CALLS;
    counters[i] = BACKEND_LIST_LOCATED_CALLS;
    this.own = IOStatisticsBinding.iostatisticsStore().withCounters(counters).build();
  }

  void increment(String counter) {
    own.incrementCounter(counter);
  }

  void increment(Op op) {
    own.incrementCounter(op.counter());
  }

  long counter(String name) {
    Long v = counters().get(name);
    return v == null ? 0 : v;
  }

  void addSource(IOStatisticsSource source) {
    if (source != null) {
      sources.add(source);
    }
  }

  private Map<String, Long> merge(Function<IOStatistics, Map<String, Long>> part) {
    Map<String, Long> out = new TreeMap<>(part.apply(own));
    for (IOStatisticsSource s : sources) {
      IOStatistics stats = s.getIOStatistics();
      if (stats != null) {
        part.apply(stats).forEach((k, v) -> out.merge(k, v, Long::sum));
      }
    }
    return out;
  }

  @Override
  public Map<String, Long> counters() {
    return merge(IOStatistics::counters);
  }

  @Override
  public Map<String, Long> gauges() {
    return merge(IOStatistics::gauges);
  }

  @Override
  public Map<String, Long> minimums() {
    return merge(IOStatistics::minimums);
  }

  @Override
  public Map<String, Long> maximums() {
    return merge(IOStatistics::maximums);
  }

  @Override
  public Map<String, MeanStatistic> meanStatistics() {
    Map<String, MeanStatistic> out = new TreeMap<>();
    own.meanStatistics().forEach((k, v) -> out.put(k, v.copy()));
    for (IOStatisticsSource s : sources) {
      IOStatistics stats = s.getIOStatistics();
      if (stats != null) {
        stats
            .meanStatistics()
            .forEach(
                (k, v) ->
                    out.merge(
                        k,
                        v.copy(),
                        (a, b) -> {
                          a.add(b);
                          return a;
                        }));
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return "DataTapStatistics" + counters();
  }

  /** The dtap operations counted in IOStatistics. */
  enum Op {
    OPEN,
    CREATE,
    APPEND,
    RENAME,
    DELETE,
    MKDIRS,
    GET_FILE_STATUS,
    LIST_STATUS,
    LIST_LOCATED_STATUS,
    LIST_FILES,
    GET_FILE_BLOCK_LOCATIONS,
    GET_FILE_CHECKSUM,
    GET_CONTENT_SUMMARY,
    SET_ATTRIBUTES,
    XATTR;

    private final String counter = "dtap_op_" + name().toLowerCase(java.util.Locale.ROOT);

    String counter() {
      return counter;
    }
  }
}
