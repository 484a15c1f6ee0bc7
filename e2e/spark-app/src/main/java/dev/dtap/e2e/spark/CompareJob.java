package dev.dtap.e2e.spark;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Runs one SQL aggregate over the same table read through a tap and read from the backend directly,
 * twice through the tap (the second read can hit the cache), and prints the results and the tap
 * filesystem's counters.
 *
 * <p>Options: {@code --format}, {@code --tap} (dtap:// paths, comma-separated), {@code --direct}
 * (the backend paths of the same tables, in the same order).
 */
final class CompareJob {
  /** A filter plus an aggregate over the test table, registered as {@code t}. */
  static final String QUERY =
      "SELECT part, count(*) AS n, sum(amount) AS amount, min(text) AS first, max(id) AS last"
          + " FROM t WHERE id % 3 = 0 OR text LIKE '%7' GROUP BY part ORDER BY part";

  private final SparkSession spark;
  private final Options options;

  CompareJob(SparkSession spark, Options options) {
    this.spark = spark;
    this.options = options;
  }

  void run() throws IOException {
    String format = options.get("format", "parquet");
    String[] taps = options.get("tap").split(",");
    String[] directs = options.get("direct").split(",");
    if (taps.length != directs.length) {
      throw new IllegalArgumentException("--tap and --direct list different numbers of paths");
    }
    for (int i = 0; i < taps.length; i++) {
      String tap = taps[i];
      print("DIRECT " + tap, aggregate(spark, format, directs[i]));
      print("TAP " + tap, aggregate(spark, format, tap));
      print("TAP2 " + tap, aggregate(spark, format, tap));
      FileSystem fs = FileSystem.get(URI.create(tap), spark.sparkContext().hadoopConfiguration());
      IOStatistics stats = IOStatisticsSupport.retrieveIOStatistics(fs);
      if (stats != null) {
        stats.counters().forEach((k, v) -> SparkJobs.result("COUNTER " + tap + " " + k + "=" + v));
      }
    }
  }

  /** Runs {@link #QUERY} over the table at a path and collects its rows. */
  static List<Row> aggregate(SparkSession spark, String format, String path) {
    spark.read().format(format).load(path).createOrReplaceTempView("t");
    return spark.sql(QUERY).collectAsList();
  }

  static void print(String label, List<Row> rows) {
    for (Row r : rows) {
      SparkJobs.result(label + " " + r.mkString("|"));
    }
    if (rows.isEmpty()) {
      SparkJobs.result(label + " (no rows)");
    }
  }
}
