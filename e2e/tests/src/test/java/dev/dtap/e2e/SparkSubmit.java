package dev.dtap.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code spark-submit} as a user runs it: Spark's own jars (listed by {@code e2e/spark-app}'s
 * build) on the class path, the dtap-hadoop jar passed with {@code --jars}, every setting with
 * {@code --conf}, the jobs of {@code dtap-e2e-spark-app.jar} as the application.
 */
final class SparkSubmit {
  /** The JVM options Spark's launcher adds for Java 17 (its JavaModuleOptions). */
  private static final String[] MODULE_OPTIONS = {
    "-XX:+IgnoreUnrecognizedVMOptions",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.net=ALL-UNNAMED",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED",
    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
    "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
    "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
    "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
    "-Djdk.reflect.useDirectMethodHandle=false",
    "-Dio.netty.tryReflectionSetAccessible=true"
  };

  private final Map<String, String> conf = new LinkedHashMap<>();
  private final File workDir;
  private String master = "local[2,4]";

  /**
   * @param workDir the driver's working directory; Spark's local and warehouse directories go under
   *     it
   */
  SparkSubmit(File workDir) {
    this.workDir = workDir;
    conf("spark.ui.enabled", "false");
    conf("spark.local.dir", new File(workDir, "spark-local").getAbsolutePath());
    conf("spark.sql.warehouse.dir", new File(workDir, "warehouse").getAbsolutePath());
    conf("spark.driver.memory", "1g");
    conf("spark.sql.shuffle.partitions", "4");
  }

  SparkSubmit master(String url) {
    this.master = url;
    return this;
  }

  SparkSubmit conf(String key, String value) {
    conf.put(key, value);
    return this;
  }

  /** Sets a Hadoop setting, as {@code spark.hadoop.<key>}. */
  SparkSubmit hadoop(String key, String value) {
    return conf("spark.hadoop." + key, value);
  }

  /**
   * Binds the dtap committers through Spark's hadoop-cloud commit protocol, as docs/committers.md
   * says.
   */
  SparkSubmit dtapCommitters(String name) {
    conf(
        "spark.sql.sources.commitProtocolClass",
        "org.apache.spark.internal.io.cloud.PathOutputCommitProtocol");
    conf(
        "spark.sql.parquet.output.committer.class",
        "org.apache.spark.internal.io.cloud.BindingParquetOutputCommitter");
    hadoop(
        "mapreduce.outputcommitter.factory.scheme.dtap", "dev.dtap.commit.DataTapCommitterFactory");
    if (name != null) {
      hadoop("fs.dtap.committer.name", name);
    }
    return this;
  }

  /**
   * @return the JVM options of a Spark process on Java 17
   */
  static List<String> moduleOptions() {
    return Arrays.asList(MODULE_OPTIONS);
  }

  /**
   * @return Spark's class path: its jars, never a dtap module
   */
  static List<String> classpath() throws IOException {
    File cpFile = new File(appDir(), "spark.classpath");
    if (!cpFile.isFile()) {
      throw new IOException(
          "No Spark class path at " + cpFile + ": build it with ./mvnw -pl e2e/tests -am verify");
    }
    String listed = new String(Files.readAllBytes(cpFile.toPath()), StandardCharsets.UTF_8).trim();
    return Arrays.stream(listed.split(File.pathSeparator))
        .filter(e -> !e.contains("dtap-"))
        .collect(Collectors.toList());
  }

  /**
   * @return the Scala version of Spark's jars, from their names
   */
  static String scalaVersion() throws IOException {
    for (String e : classpath()) {
      if (e.contains("spark-core_2.12")) {
        return "2.12";
      }
    }
    return "2.13";
  }

  private static File appDir() {
    return new File(System.getProperty("dtap.e2e.spark.app", "missing"));
  }

  /**
   * Submits a job of the test application and waits for it.
   *
   * @param name names the log
   * @param job the job and its arguments
   * @return its results; the test fails with the job's log if it did not succeed
   * @throws IOException if it cannot start or outlives 15 minutes
   */
  SparkRun run(String name, String... job) throws IOException {
    SparkRun run = runAllowingFailure(name, job);
    if (run.exit != 0) {
      throw new AssertionError(
          "spark-submit "
              + name
              + " failed ("
              + run.exit
              + "); its log "
              + run.log
              + ":\n"
              + run.tail());
    }
    return run;
  }

  /** As {@link #run}, without failing when the job does. */
  SparkRun runAllowingFailure(String name, String... job) throws IOException {
    File app = new File(appDir(), "dtap-e2e-spark-app.jar");
    List<String> args =
        new ArrayList<>(Arrays.asList("--master", master, "--deploy-mode", "client"));
    args.addAll(
        Arrays.asList(
            "--class",
            "dev.dtap.e2e.spark.SparkJobs",
            "--jars",
            HadoopInstall.dtapJar().getAbsolutePath()));
    for (Map.Entry<String, String> e : conf.entrySet()) {
      args.add("--conf");
      args.add(e.getKey() + "=" + e.getValue());
    }
    args.add(app.getAbsolutePath());
    args.addAll(Arrays.asList(job));
    ChildJvm.Result r =
        new ChildJvm("spark-" + name)
            .classpath(classpath())
            .jvmArg(MODULE_OPTIONS)
            .jvmArg("-Xmx1g")
            .jvmArg(ChildJvm.SHORT_LIVED)
            .workDir(workDir)
            .run("org.apache.spark.deploy.SparkSubmit", 15, args.toArray(new String[0]));
    return new SparkRun(r);
  }

  /** What a submitted job printed. */
  static final class SparkRun {
    final int exit;
    final File log;
    final List<String> results;
    private final ChildJvm.Result result;

    SparkRun(ChildJvm.Result result) {
      this.result = result;
      this.exit = result.exit;
      this.log = result.log;
      List<String> lines = new ArrayList<>();
      for (String line : result.stdout.split("\n")) {
        if (line.startsWith("RESULT ")) {
          lines.add(line.substring("RESULT ".length()));
        }
      }
      this.results = lines;
    }

    /**
     * @return the result lines starting with a label, without it
     */
    List<String> lines(String label) {
      return results.stream()
          .filter(l -> l.startsWith(label + " "))
          .map(l -> l.substring(label.length() + 1))
          .collect(Collectors.toList());
    }

    String tail() {
      return result.tail();
    }
  }
}
