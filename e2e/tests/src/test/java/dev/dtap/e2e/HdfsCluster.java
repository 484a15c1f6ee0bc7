package dev.dtap.e2e;

import dev.dtap.it.fixtures.FreePorts;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;

/**
 * Hadoop's mini clusters in a process of their own ({@code e2e/hadoop-app}'s launcher) whose class
 * path is Hadoop's jars, a configuration directory and the dtap-hadoop jar: HDFS alone, or HDFS and
 * YARN for {@link MapReduceCluster}.
 */
final class HdfsCluster implements AutoCloseable {
  final File dir;
  final String hdfs;
  private final ChildJvm.Running process;

  private HdfsCluster(File dir, String hdfs, ChildJvm.Running process) {
    this.dir = dir;
    this.hdfs = hdfs;
    this.process = process;
  }

  /**
   * Starts HDFS alone.
   *
   * @param name names the directory
   * @return the running cluster
   * @throws IOException if it does not start
   */
  static HdfsCluster start(String name) throws IOException {
    File dir = newDir(name);
    return launch(dir, null, newHdfsUri(), false, false);
  }

  /**
   * @return a new directory for a cluster under {@code dtap.e2e.dir}
   */
  static File newDir(String name) throws IOException {
    File dir =
        new File(System.getProperty("dtap.e2e.dir", "target/e2e"), name + "-" + System.nanoTime());
    Files.createDirectories(dir.toPath());
    return dir;
  }

  /**
   * @return an hdfs:// URI on a free port, so a configuration can name it before the cluster runs
   */
  static String newHdfsUri() throws IOException {
    return "hdfs://localhost:" + FreePorts.reserve();
  }

  /**
   * Starts the launcher and waits until the cluster serves.
   *
   * @param dir where the cluster keeps its data and logs, and writes {@code cluster-site.xml}
   * @param confDir a configuration directory for the cluster's class path, or null
   * @param hdfs the URI the NameNode serves
   * @param yarn whether to run YARN (and the MapReduce history server) too
   * @param cnode whether YARN's one NodeManager runs dtap's host cache service
   * @return the running cluster
   * @throws IOException if it does not start within five minutes
   */
  static HdfsCluster launch(File dir, File confDir, String hdfs, boolean yarn, boolean cnode)
      throws IOException {
    String opens = String.join(" ", System.getProperty("dtap.test.addOpens", "").split(" "));
    ChildJvm.Running process =
        new ChildJvm(yarn ? "minicluster" : "minidfs")
            .classpath(HadoopInstall.classpath(confDir))
            .jvmArg("-Xmx1g", "-Ddtap.e2e.yarn=" + yarn, "-Ddtap.e2e.cnode=" + cnode)
            .workDir(dir)
            .start("dev.dtap.e2e.hadoop.MiniCluster", dir.getAbsolutePath(), hdfs, opens);
    try {
      String ready = process.awaitLine("READY", 5);
      if (!ready.equals("READY " + hdfs)) {
        throw new IOException("The cluster's HDFS is not at " + hdfs + ": " + ready);
      }
    } catch (IOException | RuntimeException e) {
      process.close();
      throw e;
    }
    return new HdfsCluster(dir, hdfs, process);
  }

  @Override
  public void close() throws IOException {
    process.close();
  }
}
