package dev.dtap.e2e;

import dev.dtap.it.fixtures.FreePorts;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * A Spark standalone cluster of a master and two workers whose hosts differ ({@code 127.0.0.1} and
 * {@code 127.0.0.2}, both this machine), so that Spark runs a speculative copy of a slow task on
 * the other host as it does on a real cluster (it never runs two attempts of a task on one host,
 * which rules out local mode). The workers' executors get Spark's jars only, as from an
 * installation's {@code jars/} directory; the dtap-hadoop jar reaches them through {@code --jars}.
 */
final class SparkStandalone implements AutoCloseable {
  private static final String[] WORKER_HOSTS = {"127.0.0.1", "127.0.0.2"};

  final String masterUrl;
  private final List<ChildJvm.Running> processes;

  private SparkStandalone(String masterUrl, List<ChildJvm.Running> processes) {
    this.masterUrl = masterUrl;
    this.processes = processes;
  }

  /**
   * Starts the cluster and waits until both workers have registered.
   *
   * @param dir where the installation directory, the workers' directories and logs go
   * @return the cluster
   * @throws IOException if it does not start within five minutes
   */
  static SparkStandalone start(File dir) throws IOException {
    File home = new File(dir, "spark-home");
    Files.createDirectories(new File(home, "jars").toPath());
    int port = FreePorts.reserve();
    String url = "spark://127.0.0.1:" + port;
    List<ChildJvm.Running> processes = new ArrayList<>();
    try {
      ChildJvm.Running master =
          daemon("spark-master", home, dir)
              .start(
                  "org.apache.spark.deploy.master.Master",
                  "--host",
                  "127.0.0.1",
                  "--port",
                  Integer.toString(port),
                  "--webui-port",
                  "0");
      processes.add(master);
      master.awaitLog("Starting Spark master at " + url, 5);
      for (String host : WORKER_HOSTS) {
        File work = new File(dir, "worker-" + host);
        Files.createDirectories(work.toPath());
        ChildJvm.Running worker =
            daemon("spark-worker-" + host, home, dir)
                .start(
                    "org.apache.spark.deploy.worker.Worker",
                    "--host",
                    host,
                    "--cores",
                    "2",
                    "--memory",
                    "1g",
                    "--work-dir",
                    work.getAbsolutePath(),
                    "--webui-port",
                    "0",
                    url);
        processes.add(worker);
      }
      for (ChildJvm.Running worker : processes.subList(1, processes.size())) {
        worker.awaitLog("Successfully registered with master", 5);
      }
    } catch (IOException | RuntimeException e) {
      for (ChildJvm.Running p : processes) {
        p.close();
      }
      throw e;
    }
    return new SparkStandalone(url, processes);
  }

  private static ChildJvm daemon(String name, File home, File dir) throws IOException {
    String classpath = String.join(File.pathSeparator, SparkSubmit.classpath());
    return new ChildJvm(name)
        .classpath(SparkSubmit.classpath())
        .jvmArg(SparkSubmit.moduleOptions().toArray(new String[0]))
        .jvmArg("-Xmx512m")
        .workDir(dir)
        .env("SPARK_HOME", home.getAbsolutePath())
        .env("SPARK_SCALA_VERSION", SparkSubmit.scalaVersion())
        // what an installation's jars/ directory holds, for the executors the workers start
        .env("SPARK_DIST_CLASSPATH", classpath);
  }

  @Override
  public void close() throws IOException {
    for (int i = processes.size() - 1; i >= 0; i--) {
      processes.get(i).process.destroy(); // Spark's daemons stop on SIGTERM
      processes.get(i).close();
    }
  }
}
