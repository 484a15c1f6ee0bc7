package dev.dtap.e2e.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark applications the drop-in tests submit with {@code spark-submit} (the class {@code
 * org.apache.spark.deploy.SparkSubmit}), the dtap-hadoop jar passed with {@code --jars} and every
 * dtap setting as {@code spark.hadoop.*}. They print what they computed as {@code RESULT} lines on
 * standard output; the tests compare those lines and what the jobs left on the stores.
 *
 * <p>Usage: {@code write|read|compare|scan} and the arguments of {@link WriteJob}, {@link ReadJob},
 * {@link CompareJob}, {@link ScanJob}.
 */
public final class SparkJobs {
  private SparkJobs() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      throw new IllegalArgumentException("usage: write|read|compare|scan <arguments>");
    }
    List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
    SparkSession spark = SparkSession.builder().appName("dtap-e2e-" + args[0]).getOrCreate();
    try {
      switch (args[0]) {
        case "write":
          new WriteJob(spark, new Options(rest)).run();
          break;
        case "read":
          new ReadJob(spark, new Options(rest)).run();
          break;
        case "compare":
          new CompareJob(spark, new Options(rest)).run();
          break;
        case "scan":
          new ScanJob(spark, new Options(rest)).run();
          break;
        default:
          throw new IllegalArgumentException("unknown job " + args[0]);
      }
    } finally {
      spark.stop();
    }
  }

  /** Prints a result line for the test. */
  static void result(String line) {
    System.out.println("RESULT " + line);
    System.out.flush();
  }
}
