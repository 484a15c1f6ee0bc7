package dev.dtap.e2e.spark;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Runs {@link CompareJob#QUERY} once over one table, as a report job runs in a JVM of its own, and
 * prints how long the query took (reading the table's footers and columns included, the session's
 * start not), the processor time and collection pauses the JVM spent meanwhile (in local mode the
 * executors are in this JVM too), its rows, and the cache's counters of the table's filesystem
 * (dtap's only: what the cache served, fetched and failed to keep).
 *
 * <p>Options: {@code --path}, {@code --format} (default parquet).
 */
final class ScanJob {
  private final SparkSession spark;
  private final Options options;

  ScanJob(SparkSession spark, Options options) {
    this.spark = spark;
    this.options = options;
  }

  void run() throws IOException {
    String path = options.get("path");
    long cpu = processCpuNanos();
    long gc = collectionMillis();
    long start = System.nanoTime();
    List<Row> rows = CompareJob.aggregate(spark, options.get("format", "parquet"), path);
    long millis = (System.nanoTime() - start) / 1_000_000;
    SparkJobs.result("SCAN_MS " + millis);
    if (cpu >= 0) {
      SparkJobs.result("SCAN_CPU_MS " + (processCpuNanos() - cpu) / 1_000_000);
    }
    SparkJobs.result("SCAN_GC_MS " + (collectionMillis() - gc));
    CompareJob.print("ROW", rows);
    FileSystem fs = FileSystem.get(URI.create(path), spark.sparkContext().hadoopConfiguration());
    IOStatistics stats = IOStatisticsSupport.retrieveIOStatistics(fs);
    if (stats != null) {
      stats.counters().entrySet().stream()
          .filter(e -> e.getKey().startsWith("dtap_cache_"))
          .forEach(e -> SparkJobs.result("COUNTER " + e.getKey() + "=" + e.getValue()));
    }
  }

  /** This JVM's processor time, user and system, or -1 where the platform does not say. */
  private static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean
        ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime()
        : -1;
  }

  /** The time every collector of this JVM has spent collecting so far. */
  private static long collectionMillis() {
    long sum = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      sum += Math.max(0, gc.getCollectionTime());
    }
    return sum;
  }
}
