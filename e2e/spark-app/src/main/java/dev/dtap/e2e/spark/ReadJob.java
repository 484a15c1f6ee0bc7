package dev.dtap.e2e.spark;

import org.apache.spark.sql.SparkSession;

/** Reads a table back and prints its digest. Options: {@code --format}, {@code --path}. */
final class ReadJob {
  private final SparkSession spark;
  private final Options options;

  ReadJob(SparkSession spark, Options options) {
    this.spark = spark;
    this.options = options;
  }

  void run() {
    Table.printDigest(
        "READ", spark.read().format(options.get("format", "parquet")).load(options.get("path")));
  }
}
