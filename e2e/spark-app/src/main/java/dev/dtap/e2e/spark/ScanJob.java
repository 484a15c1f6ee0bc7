package dev.dtap.e2e.spark;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Runs {@link CompareJob#QUERY} once over one table, as a report job runs in a JVM of its own, and
 * prints how long the query took (reading the table's footers and columns included, the session's
 * start not) and its rows.
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

  void run() {
    String path = options.get("path");
    long start = System.nanoTime();
    List<Row> rows = CompareJob.aggregate(spark, options.get("format", "parquet"), path);
    long millis = (System.nanoTime() - start) / 1_000_000;
    SparkJobs.result("SCAN_MS " + millis);
    CompareJob.print("ROW", rows);
  }
}
