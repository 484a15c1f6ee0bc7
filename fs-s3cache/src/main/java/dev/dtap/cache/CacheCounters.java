package dev.dtap.cache;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.MeanStatistic;

/**
 * The read cache's counters, published as IOStatistics. One set per stream, one per tap (each
 * stream adds to its tap's too), one for the JVM's page store (evictions, corrupt pages, faults).
 *
 * <p>Thread-safe; adding is contention-free.
 */
final class CacheCounters implements IOStatistics {
  static final String HITS = "dtap_cache_hits";
  static final String MISSES = "dtap_cache_misses";
  static final String BYTES_MEMORY = "dtap_cache_bytes_from_memory";
  static final String BYTES_DISK = "dtap_cache_bytes_from_disk";
  static final String BYTES_BACKEND = "dtap_cache_bytes_from_backend";
  static final String EVICTIONS = "dtap_cache_evictions";
  static final String CORRUPT = "dtap_cache_corrupt_pages";
  static final String PREFETCH_USED = "dtap_cache_prefetched_used";
  static final String PREFETCH_WASTED = "dtap_cache_prefetched_wasted";
  static final String PREFETCH_SKIPPED = "dtap_cache_prefetch_skipped";
  static final String WRITES_DROPPED = "dtap_cache_writes_dropped";
  static final String BACKEND_READS = "dtap_cache_backend_reads";
  static final String DISK_BYPASSED = "dtap_cache_disk_bypassed";
  static final String CNODE_FALLBACKS = "dtap_cache_cnode_fallbacks";
  static final String CNODE_FAILURES = "dtap_cache_cnode_failures";

  private final CacheCounters parent;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder bytesMemory = new LongAdder();
  private final LongAdder bytesDisk = new LongAdder();
  private final LongAdder bytesBackend = new LongAdder();
  private final LongAdder backendReads = new LongAdder();
  private final LongAdder evictions = new LongAdder();
  private final LongAdder corrupt = new LongAdder();
  private final LongAdder prefetchUsed = new LongAdder();
  private final LongAdder prefetchWasted = new LongAdder();
  private final LongAdder prefetchSkipped = new LongAdder();
  private final LongAdder writesDropped = new LongAdder();
  private final LongAdder cnodeFallbacks = new LongAdder();
  private final LongAdder cnodeFailures = new LongAdder();
  private final Faults faults;

  /**
   * @param parent counters that also receive every increment (a stream's tap), or null
   * @param faults the store's fault counts to publish, or null
   */
  CacheCounters(CacheCounters parent, Faults faults) {
    this.parent = parent;
    this.faults = faults;
  }

  void hitMemory(long bytes) {
    hits.increment();
    bytesMemory.add(bytes);
    if (parent != null) {
      parent.hitMemory(bytes);
    }
  }

  void hitDisk(long bytes) {
    hits.increment();
    bytesDisk.add(bytes);
    if (parent != null) {
      parent.hitDisk(bytes);
    }
  }

  void miss() {
    misses.increment();
    if (parent != null) {
      parent.miss();
    }
  }

  void backend(long bytes) {
    bytesBackend.add(bytes);
    backendReads.increment();
    if (parent != null) {
      parent.backend(bytes);
    }
  }

  void eviction() {
    evictions.increment();
    if (parent != null) {
      parent.eviction();
    }
  }

  void corruptPage() {
    corrupt.increment();
    if (parent != null) {
      parent.corruptPage();
    }
  }

  void prefetchUsed() {
    prefetchUsed.increment();
    if (parent != null) {
      parent.prefetchUsed();
    }
  }

  void prefetchWasted() {
    prefetchWasted.increment();
    if (parent != null) {
      parent.prefetchWasted();
    }
  }

  void prefetchSkipped() {
    prefetchSkipped.increment();
    if (parent != null) {
      parent.prefetchSkipped();
    }
  }

  void writeDropped() {
    writesDropped.increment();
    if (parent != null) {
      parent.writeDropped();
    }
  }

  /** A request that would have gone to the host's cache service went without it. */
  void cnodeFallback() {
    cnodeFallbacks.increment();
  }

  /** The host's cache service failed or answered late. */
  void cnodeFailure() {
    cnodeFailures.increment();
  }

  long bytesFromBackend() {
    return bytesBackend.sum();
  }

  @Override
  public Map<String, Long> counters() {
    Map<String, Long> m = new TreeMap<>();
    m.put(HITS, hits.sum());
    m.put(MISSES, misses.sum());
    m.put(BYTES_MEMORY, bytesMemory.sum());
    m.put(BYTES_DISK, bytesDisk.sum());
    m.put(BYTES_BACKEND, bytesBackend.sum());
    m.put(BACKEND_READS, backendReads.sum());
    m.put(EVICTIONS, evictions.sum());
    m.put(CORRUPT, corrupt.sum());
    m.put(PREFETCH_USED, prefetchUsed.sum());
    m.put(PREFETCH_WASTED, prefetchWasted.sum());
    m.put(PREFETCH_SKIPPED, prefetchSkipped.sum());
    m.put(WRITES_DROPPED, writesDropped.sum());
    m.put(CNODE_FALLBACKS, cnodeFallbacks.sum());
    m.put(CNODE_FAILURES, cnodeFailures.sum());
    if (faults != null) {
      for (Faults.Cause c : Faults.Cause.values()) {
        m.put(c.counter(), faults.count(c));
      }
    }
    return m;
  }

  /**
   * The store's gauges: {@value #DISK_BYPASSED} is 1 while a fault has the disk tier bypassed
   * (reads go to memory and the backend), else 0; each bypass began with one fault counted above.
   */
  @Override
  public Map<String, Long> gauges() {
    if (faults == null) {
      return Collections.emptyMap();
    }
    return Collections.singletonMap(DISK_BYPASSED, faults.diskUsable() ? 0L : 1L);
  }

  @Override
  public Map<String, Long> minimums() {
    return Collections.emptyMap();
  }

  @Override
  public Map<String, Long> maximums() {
    return Collections.emptyMap();
  }

  @Override
  public Map<String, MeanStatistic> meanStatistics() {
    return Collections.emptyMap();
  }

  @Override
  public String toString() {
    return counters().toString();
  }
}
