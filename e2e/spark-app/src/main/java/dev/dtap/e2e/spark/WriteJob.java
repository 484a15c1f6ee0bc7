package dev.dtap.e2e.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.udf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataTypes;

/**
 * Writes the test table, partitioned by {@code part}, with the commit protocol the session is
 * configured with.
 *
 * <p>Options: {@code --format parquet|orc}, {@code --dest} (one or more, comma-separated), {@code
 * --verify true} (then reads every destination back and prints its digest), {@code --rows}, {@code
 * --gen} (generation), {@code --slices} (tasks, default 4), {@code --mode overwrite|append}, {@code
 * --partitions 1,3} (write only rows of these partitions), {@code --fail-once true} (the first
 * attempt of the second task fails halfway through its rows), {@code --straggle DIR} (the first
 * attempt of the first task stalls, after writing rows, until a second attempt of it has started:
 * with speculation on, Spark starts one).
 */
final class WriteJob {
  private final SparkSession spark;
  private final Options options;

  WriteJob(SparkSession spark, Options options) {
    this.spark = spark;
    this.options = options;
  }

  void run() throws TimeoutException {
    long rows = options.getLong("rows", 200_000);
    int slices = (int) options.getLong("slices", 4);
    int generation = (int) options.getLong("gen", 1);
    Dataset<Row> table = Table.generate(spark, rows, generation, slices);
    String partitions = options.get("partitions", "");
    if (!partitions.isEmpty()) {
      Object[] wanted = Arrays.stream(partitions.split(",")).map(Integer::valueOf).toArray();
      table = table.where(col("part").isin(wanted));
    }
    Table.printDigest("WROTE", table);
    Dataset<Row> written = table;
    if (Boolean.parseBoolean(options.get("fail-once", "false"))) {
      long failAt = rows / slices + rows / slices / 2; // halfway through the second task's ids
      written = written.withColumn("id", failOnce(failAt).apply(col("id")));
    }
    String straggle = options.get("straggle", "");
    if (!straggle.isEmpty()) {
      written = written.withColumn("id", straggle(straggle).apply(col("id")));
    }
    TaskOutcomes outcomes = TaskOutcomes.listen(spark);
    String format = options.get("format", "parquet");
    for (String dest : options.get("dest").split(",")) {
      written
          .write()
          .format(format)
          .partitionBy("part")
          .mode(options.get("mode", "overwrite"))
          .save(dest);
    }
    outcomes.print();
    if (Boolean.parseBoolean(options.get("verify", "false"))) {
      for (String dest : options.get("dest").split(",")) {
        Table.printDigest("READ", spark.read().format(format).load(dest));
      }
    }
  }

  private static UserDefinedFunction failOnce(long failAt) {
    UDF1<Long, Long> f =
        id -> {
          TaskContext task = TaskContext.get();
          if (id == failAt && task.partitionId() == 1 && task.attemptNumber() == 0) {
            throw new IllegalStateException(
                "dtap e2e: the first attempt of task 1 fails here on purpose");
          }
          return id;
        };
    return udf(f, DataTypes.LongType).asNondeterministic();
  }

  private static UserDefinedFunction straggle(String dir) {
    UDF1<Long, Long> f =
        id -> {
          TaskContext task = TaskContext.get();
          if (id == 1000 && task.partitionId() == 0) {
            Path marker = Paths.get(dir, "second-attempt-started");
            if (task.attemptNumber() == 0) {
              awaitFile(marker, TimeUnit.MINUTES.toMillis(3));
            } else {
              touch(marker);
            }
          }
          return id;
        };
    return udf(f, DataTypes.LongType).asNondeterministic();
  }

  private static void awaitFile(Path marker, long timeoutMillis) {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while (!Files.exists(marker) && System.currentTimeMillis() < deadline) {
      try {
        Thread.sleep(50); // stalls this task, as a slow disk or a busy host does
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return; // killed: Spark interrupts an attempt it no longer needs
      }
    }
  }

  private static void touch(Path marker) {
    try {
      Files.createDirectories(marker.getParent());
      if (!Files.exists(marker)) {
        Files.createFile(marker);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
