package dev.dtap.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dtap.cache.cnode.CacheNode;
import dev.dtap.cache.cnode.CacheNodeAuxService;
import dev.dtap.cache.cnode.CnodeKeys;
import dev.dtap.cache.disk.DiskKeys;
import dev.dtap.fs.testing.Await;
import dev.dtap.it.fixtures.YarnFixture;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The NodeManager's cache service fails closed for the cache and open for the node. A real
 * NodeManager (MiniMRYarnCluster, one node) starts {@link CacheNodeAuxService} with each cause of a
 * failed start; the NodeManager runs and is RUNNING at the ResourceManager, the failure is counted
 * where an operator's JMX tool reads it, {@code dtap doctor} on the host says why, and Hadoop's own
 * WordCount runs on that NodeManager reading a cached tap that names the dead socket: its tasks
 * cache in their own JVMs.
 */
class ITestCacheNodeAuxFailures {
  private static final String SERVICE = "dtap_cnode";
  private static final String SECRET = "a-cluster-secret-of-32-bytes-000";

  enum Cause {
    /** a setting only the service reads */
    BAD_SETTING("fs.dtap.cache.max.size"),
    /** a cache directory the service cannot create */
    UNUSABLE_DIRECTORY("cannot prepare its directories"),
    /** another service already listens on the socket */
    SOCKET_IN_USE("Another cache service listens on");

    final String expected;

    Cause(String expected) {
      this.expected = expected;
    }
  }

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(Cause.class)
  void aFailedStartLeavesTheNodeManagerServing(Cause cause) throws Exception {
    Path socket = dir.resolve("cnode.sock");
    Configuration conf = YarnFixture.tuneForTests(new Configuration());
    conf.set(CnodeKeys.SOCKET.name(), socket.toString());
    conf.set(CnodeKeys.SECRET.name(), SECRET);
    conf.set(CnodeKeys.PORT.name(), "0");
    conf.set(DiskKeys.DIRS.name(), dir.resolve("cache").toString());
    CacheNode other = null;
    switch (cause) {
      case BAD_SETTING:
        conf.set(DiskKeys.MAX_SIZE.name(), "lots");
        break;
      case UNUSABLE_DIRECTORY:
        Path file = Files.write(dir.resolve("a-file"), new byte[] {1});
        conf.set(DiskKeys.DIRS.name(), file.resolve("cache").toString());
        break;
      case SOCKET_IN_USE:
        Configuration first = new Configuration(conf);
        first.set(DiskKeys.DIRS.name(), dir.resolve("other-cache").toString());
        other = CacheNode.start(first);
        break;
      default:
        throw new AssertionError(cause);
    }
    MiniMRYarnCluster yarn = new MiniMRYarnCluster("dtap-aux-" + cause.name().toLowerCase(), 1);
    try {
      yarn.init(withCacheService(conf));
      yarn.start();
      assertThat(yarn.getNodeManager(0).getServiceState())
          .as("the NodeManager after the service failed")
          .isEqualTo(Service.STATE.STARTED);
      // registration and the node's move to RUNNING happen on the ResourceManager's dispatcher
      Await.until(
          "the NodeManager RUNNING at the ResourceManager",
          Duration.ofMinutes(2),
          () -> {
            Collection<RMNode> nodes =
                yarn.getResourceManager().getRMContext().getRMNodes().values();
            return nodes.size() == 1
                && nodes.stream().allMatch(n -> n.getState() == NodeState.RUNNING);
          });
      assertThat(startFailures()).as("failed starts, over JMX").isEqualTo(1L);

      ToolHarness tool = new ToolHarness();
      Configuration host = new Configuration(conf);
      host.unset(DiskKeys.MAX_SIZE.name());
      tool.run(host, "doctor", "--json");
      JsonNode row = cnodeRow(tool.json());
      if (cause == Cause.SOCKET_IN_USE) {
        // the host is served, by the service that held the socket
        assertThat(row.get("status").asText()).as(row.toString()).isEqualTo("OK");
      } else {
        assertThat(row.get("status").asText()).isEqualTo("FAIL");
        assertThat(row.get("detail").asText())
            .contains("dtap_cnode auxiliary service did not start")
            .contains(cause.expected)
            .doesNotContain(SECRET);
      }
      if (cause == Cause.BAD_SETTING) {
        wordCountFallsBackToItsOwnCache(yarn, socket);
      }
    } finally {
      yarn.stop();
      if (other != null) {
        other.close();
      }
    }
    assertThat(startFailures()).as("counters gone with the NodeManager").isNull();
  }

  /** Hadoop's WordCount on the NodeManager, over a cached tap that names the dead socket. */
  private void wordCountFallsBackToItsOwnCache(MiniMRYarnCluster yarn, Path socket)
      throws Exception {
    File root = Files.createDirectories(dir.resolve("tap")).toFile();
    Configuration conf = new Configuration(yarn.getConfig());
    conf.set("fs.dtap.tap.wc.uri", root.toURI().toString());
    conf.set("fs.dtap.tap.wc.cache", "true");
    conf.set(DiskKeys.DIRS.name(), dir.resolve("task-cache").toString());
    conf.unset(DiskKeys.MAX_SIZE.name());
    conf.set(CnodeKeys.SOCKET.name(), socket.toString());
    conf.set(CnodeKeys.SECRET.name(), SECRET);
    FileSystem dtap = new org.apache.hadoop.fs.Path("dtap://wc/").getFileSystem(conf);
    try (FSDataOutputStream out = dtap.create(new org.apache.hadoop.fs.Path("dtap://wc/in/a"))) {
      out.write("to be or not to be\n".getBytes(StandardCharsets.UTF_8));
    }
    Job job = Job.getInstance(conf, "wordcount beside a failed cache service");
    job.setJarByClass(WordCount.class);
    job.setMapperClass(WordCount.TokenizerMapper.class);
    job.setReducerClass(WordCount.IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path("dtap://wc/in"));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path("dtap://wc/out"));
    assertThat(job.waitForCompletion(true)).as("job %s succeeded", job.getJobID()).isTrue();
    String text;
    try (FSDataInputStream in =
        dtap.open(new org.apache.hadoop.fs.Path("dtap://wc/out/part-r-00000"))) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(text.split("\n")).containsExactly("be\t2", "not\t1", "or\t1", "to\t2");
  }

  /** The counter of failed starts the NodeManager's service exposes, or null if none is there. */
  private static Long startFailures() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Set<ObjectName> names =
        server.queryNames(
            new ObjectName("Hadoop:service=dtap-cnode,name=CacheNodeService-*"), null);
    if (names.isEmpty()) {
      return null;
    }
    assertThat(names).hasSize(1);
    Object v = server.getAttribute(names.iterator().next(), "cnode_service_start_failures");
    return ((Number) v).longValue();
  }

  private static JsonNode cnodeRow(JsonNode doctor) {
    for (JsonNode check : doctor.get("checks")) {
      if (check.get("check").asText().equals("cnode")) {
        return check;
      }
    }
    throw new AssertionError("no cnode row in " + doctor);
  }

  /**
   * The cluster's configuration with dtap's cache service among the NodeManager's auxiliary
   * services: MiniMRYarnCluster sets the list to MapReduce's shuffle alone.
   */
  private static Configuration withCacheService(Configuration conf) {
    Configuration c =
        new Configuration(conf) {
          @Override
          public void setStrings(String name, String... values) {
            if (YarnConfiguration.NM_AUX_SERVICES.equals(name)) {
              String[] more = Arrays.copyOf(values, values.length + 1);
              more[values.length] = SERVICE;
              super.setStrings(name, more);
            } else {
              super.setStrings(name, values);
            }
          }
        };
    c.set(
        String.format(YarnConfiguration.NM_AUX_SERVICE_FMT, SERVICE),
        CacheNodeAuxService.class.getName());
    return c;
  }
}
