package dev.dtap.e2e.hadoop;

import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * Runs a MiniDFS and MiniYARN cluster in this process, whose class path is Hadoop's jars and
 * whatever the caller adds (the dtap-hadoop jar): the cluster's containers inherit it, as a
 * NodeManager's containers inherit an installation's jars. Writes the client configuration to
 * {@code <dir>/cluster-site.xml}, prints {@code READY}, and stops when its standard input closes.
 *
 * <p>Arguments: the directory to write to, the HDFS URI to serve (its port chosen by the caller, so
 * that a core-site.xml on this class path can name it before the cluster runs), and JVM options for
 * the containers. With {@code -Ddtap.e2e.yarn=false}, HDFS only; with {@code
 * -Ddtap.e2e.cnode=true}, one NodeManager running dtap's host cache service as an auxiliary
 * service, configured by the {@code fs.dtap.cnode.*} keys of the class path's core-site.xml.
 */
public final class MiniCluster {
  private MiniCluster() {}

  /** Exits 1 when the clusters fail to start: their non-daemon threads would keep the JVM alive. */
  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable t) {
      t.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }

  private static void run(String[] args) throws Exception {
    File dir = new File(args[0]);
    URI hdfs = URI.create(args[1]);
    String childOpts = args.length > 2 ? args[2] : "";
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(dir, "hdfs").getAbsolutePath());
    MiniDFSCluster dfs =
        new MiniDFSCluster.Builder(conf).nameNodePort(hdfs.getPort()).numDataNodes(1).build();
    dfs.waitClusterUp();
    conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
    if (!Boolean.parseBoolean(System.getProperty("dtap.e2e.yarn", "true"))) {
      serve(dir, conf, null, dfs);
      return;
    }
    // Containers live seconds on two shared cores: the JIT's second tier and a parallel collector
    // cost them more processor time than they save.
    String jvm = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC " + childOpts;
    conf.set("mapreduce.map.java.opts", "-Xmx300m " + jvm);
    conf.set("mapreduce.reduce.java.opts", "-Xmx300m " + jvm);
    conf.set("yarn.app.mapreduce.am.command-opts", "-Xmx400m " + jvm);
    // A test job's tasks run for seconds: heartbeats and polls of a second each (the defaults,
    // for clusters of thousands of nodes) would be much of every job's time.
    for (String key :
        new String[] {
          "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms",
          "yarn.resourcemanager.nodemanagers.heartbeat-interval-min-ms",
          "yarn.resourcemanager.nodemanagers.heartbeat-interval-max-ms",
          "yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms",
          "mapreduce.client.progressmonitor.pollinterval",
          "mapreduce.client.completion.pollinterval"
        }) {
      conf.setInt(key, 200);
    }
    conf.setInt("yarn.app.mapreduce.am.resource.mb", 512);
    conf.setInt("mapreduce.map.memory.mb", 512);
    conf.setInt("mapreduce.reduce.memory.mb", 512);
    conf.setInt(YarnConfiguration.NM_PMEM_MB, 4096);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 5);
    // with the host cache service, one NodeManager: it is one per host
    boolean cnode = Boolean.getBoolean("dtap.e2e.cnode");
    MiniMRYarnCluster yarn = new MiniMRYarnCluster("dtap-e2e", cnode ? 1 : 2);
    yarn.init(cnode ? withCacheService(conf) : conf);
    yarn.start();
    serve(dir, new Configuration(yarn.getConfig()), yarn, dfs);
  }

  /**
   * The cluster's configuration with dtap's cache service among the NodeManager's auxiliary
   * services, as yarn-site.xml adds it on a real cluster. MiniMRYarnCluster sets the list to
   * MapReduce's shuffle alone; this configuration adds dtap's to whatever list is set.
   */
  private static Configuration withCacheService(Configuration conf) {
    Configuration c =
        new Configuration(conf) {
          @Override
          public void setStrings(String name, String... values) {
            if (YarnConfiguration.NM_AUX_SERVICES.equals(name)) {
              String[] more = java.util.Arrays.copyOf(values, values.length + 1);
              more[values.length] = "dtap_cnode";
              super.setStrings(name, more);
            } else {
              super.setStrings(name, values);
            }
          }
        };
    c.set(
        String.format(YarnConfiguration.NM_AUX_SERVICE_FMT, "dtap_cnode"),
        "dev.dtap.cache.cnode.CacheNodeAuxService");
    return c;
  }

  private static void serve(
      File dir, Configuration client, MiniMRYarnCluster yarn, MiniDFSCluster dfs) throws Exception {
    try (OutputStream out = new FileOutputStream(new File(dir, "cluster-site.xml"))) {
      client.writeXml(out);
    }
    System.out.println("READY " + dfs.getFileSystem().getUri());
    System.out.flush();
    try {
      while (System.in.read() >= 0) {
        // wait for the test to close our input
      }
    } finally {
      if (yarn != null) {
        yarn.stop();
      }
      dfs.shutdown();
    }
  }
}
