package dev.dtap.e2e.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.hash;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.pmod;
import static org.apache.spark.sql.functions.sum;

import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The test table: row {@code id} of {@code 0..rows-1} has partition {@code id % 8}, a text, an
 * amount and the generation that wrote it. Its digest (per partition: rows, distinct ids, sum of
 * ids, sum of row hashes) is what written and read-back data are compared by.
 */
final class Table {
  static final int PARTITIONS = 8;

  private Table() {}

  /**
   * @param spark the session
   * @param rows how many rows
   * @param generation written into every row, to tell overwritten partitions apart
   * @param slices Spark partitions (tasks) to generate them in
   * @return the rows
   */
  static Dataset<Row> generate(SparkSession spark, long rows, int generation, int slices) {
    return spark
        .range(0, rows, 1, slices)
        .select(
            col("id"),
            pmod(col("id"), lit(PARTITIONS)).cast("int").as("part"),
            concat(lit("row-"), col("id").cast("string")).as("text"),
            col("id").cast("double").multiply(lit(0.5)).as("amount"),
            lit(generation).as("gen"));
  }

  /** Prints the digest of a table, one result line per partition, sorted, with a label. */
  static void printDigest(String label, Dataset<Row> table) {
    Column rowHash = pmod(hash(col("id"), col("text"), col("amount"), col("gen")), lit(1_000_003));
    List<Row> parts =
        table
            .groupBy(col("part"), col("gen"))
            .agg(
                count(lit(1)).as("n"),
                countDistinct(col("id")).as("ids"),
                sum(col("id")).as("idsum"),
                sum(rowHash).as("h"))
            .orderBy(col("part"), col("gen"))
            .collectAsList();
    for (Row r : parts) {
      SparkJobs.result(
          String.format(
              "%s part=%d gen=%d rows=%d ids=%d idsum=%d hash=%d",
              label,
              r.getInt(0),
              r.getInt(1),
              r.getLong(2),
              r.getLong(3),
              r.getLong(4),
              r.getLong(5)));
    }
  }
}
