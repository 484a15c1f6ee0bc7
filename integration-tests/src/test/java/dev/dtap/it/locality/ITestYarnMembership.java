package dev.dtap.it.locality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.Await;
import dev.dtap.fs.testing.LocalTaps;
import dev.dtap.it.fixtures.RepoRoot;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The resolver learns the RUNNING NodeManagers from a real ResourceManager and drops one that stops
 * within the refresh interval. Three NodeManagers run in this JVM, each registered under its own
 * loopback address (127.0.0.2-4) so that the ResourceManager sees three distinct hosts.
 */
class ITestYarnMembership {
  private static final String[] NM_HOSTS = {"127.0.0.2", "127.0.0.3", "127.0.0.4"};
  private static MiniYARNCluster yarn;
  private static final List<NodeManager> nodeManagers = new ArrayList<>();

  @BeforeAll
  static void startCluster() throws Exception {
    YarnConfiguration conf = new YarnConfiguration();
    conf.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 200);
    yarn = new MiniYARNCluster("dtap-membership", 1, 0, 1, 1);
    yarn.init(conf);
    yarn.start();
    File work = new File(RepoRoot.data(), "membership-nm-" + System.nanoTime());
    for (String host : NM_HOSTS) {
      YarnConfiguration nmConf = new YarnConfiguration(yarn.getConfig());
      File dir = new File(work, host);
      nmConf.set(YarnConfiguration.NM_LOCAL_DIRS, new File(dir, "local").getAbsolutePath());
      nmConf.set(YarnConfiguration.NM_LOG_DIRS, new File(dir, "logs").getAbsolutePath());
      // registered under the address: the NodeId host is this address
      nmConf.set(YarnConfiguration.NM_BIND_HOST, host);
      nmConf.set(YarnConfiguration.NM_ADDRESS, host + ":0");
      nmConf.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, host + ":0");
      nmConf.set(YarnConfiguration.NM_WEBAPP_ADDRESS, host + ":0");
      nmConf.setBoolean(YarnConfiguration.NM_ENABLE_HARDWARE_CAPABILITY_DETECTION, false);
      nmConf.setBoolean(YarnConfiguration.NM_CONTAINER_MONITOR_ENABLED, false);
      nmConf.setInt(YarnConfiguration.NM_PMEM_MB, 1024);
      nmConf.setBoolean(YarnConfiguration.NM_RECOVERY_ENABLED, false);
      NodeManager nm = new NodeManager();
      nm.init(nmConf);
      nm.start();
      nodeManagers.add(nm);
    }
    try (YarnClient client = YarnClient.createYarnClient()) {
      client.init(yarn.getConfig());
      client.start();
      Await.until(
          "three RUNNING NodeManagers",
          Duration.ofSeconds(60),
          () -> client.getNodeReports(NodeState.RUNNING).size() == NM_HOSTS.length);
    }
  }

  @AfterAll
  static void stopCluster() {
    for (NodeManager nm : nodeManagers) {
      nm.stop();
    }
    if (yarn != null) {
      yarn.stop();
    }
  }

  @Test
  void learnsRunningNodeManagersAndDropsAStoppedOne() throws Exception {
    File root = LocalTaps.newDir("membership");
    Configuration conf = new Configuration(yarn.getConfig());
    LocalTaps.addTap(conf, "m", root);
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    conf.set("fs.dtap.tap.m.locality", "true");
    conf.set("fs.dtap.locality.membership", "yarn");
    conf.set("fs.dtap.locality.refresh", "500ms");
    // long enough that the first lookup ends with the ResourceManager's answer, never the timeout
    conf.set("fs.dtap.locality.timeout", "60s");
    conf.set("fs.dtap.block.size", "4k");
    File tmp = new File(root, "hadoop-tmp");
    conf.set("hadoop.tmp.dir", tmp.getPath());
    try (FileSystem fs = FileSystem.newInstance(URI.create("dtap://m/"), conf)) {
      Path p = new Path("dtap://m/data");
      try (FSDataOutputStream out = fs.create(p)) {
        out.write(new byte[400 * 1024]); // 100 blocks
      }
      assertThat(counterOf(fs, "dtap_locality_membership_refreshes"))
          .as("ResourceManager reads before the first lookup")
          .isZero();
      // the first lookup, as split planning makes it, waits for the first answer: every block is
      // placed on the NodeManagers, and the backend is never asked
      assertThat(hostsOf(fs, p)).containsExactlyInAnyOrder(NM_HOSTS);
      assertThat(backendLocationCalls(fs)).isZero();
      // saved for the next JVM of this user, which plans without waiting for the ResourceManager
      File[] saved =
          new File(tmp, "dtap-locality-" + System.getProperty("user.name"))
              .listFiles((d, n) -> n.startsWith("membership-") && !n.endsWith(".tmp"));
      assertThat(saved).hasSize(1);
      assertThat(Files.readAllLines(saved[0].toPath())).contains(NM_HOSTS);
      long callsWithMembership = backendLocationCalls(fs);

      long stoppedAt = System.nanoTime();
      nodeManagers.get(1).stop(); // unregisters: the ResourceManager marks it SHUTDOWN
      TreeSet<String> after = hostsEventually(fs, p, 2);
      long tookMs = (System.nanoTime() - stoppedAt) / 1_000_000;
      assertThat(after).containsExactlyInAnyOrder("127.0.0.2", "127.0.0.4");
      // how long it took is reported, not asserted: a shared two-core machine decides that
      assertThat(backendLocationCalls(fs)).isEqualTo(callsWithMembership);
      System.out.printf("membership: dropped a stopped NodeManager after %d ms%n", tookMs);
    }
  }

  private static long backendLocationCalls(FileSystem fs) {
    return counterOf(fs, "dtap_backend_location_calls");
  }

  private static long counterOf(FileSystem fs, String name) {
    Long calls = ((IOStatisticsSource) fs).getIOStatistics().counters().get(name);
    return calls == null ? 0 : calls;
  }

  private static TreeSet<String> hostsOf(FileSystem fs, Path p) throws Exception {
    TreeSet<String> hosts = new TreeSet<>();
    for (org.apache.hadoop.fs.BlockLocation b :
        fs.getFileBlockLocations(fs.getFileStatus(p), 0, Long.MAX_VALUE)) {
      hosts.addAll(Arrays.asList(b.getHosts()));
    }
    return hosts;
  }

  /** The set of hosts used over all blocks of the file, once it has {@code count} members. */
  private static TreeSet<String> hostsEventually(FileSystem fs, Path p, int count)
      throws Exception {
    return Await.value(
        "membership of " + count + " hosts",
        Duration.ofSeconds(30),
        () -> {
          TreeSet<String> hosts = hostsOf(fs, p);
          return hosts.size() == count ? hosts : null;
        });
  }
}
