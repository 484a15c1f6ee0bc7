package dev.dtap.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dtap.fs.testing.Await;
import dev.dtap.it.fixtures.MinioFixture;
import java.io.File;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * dtap's host cache service as an operator deploys it: the NodeManager of an unmodified YARN
 * (MiniYARN in a process whose class path is Hadoop's jars and the dtap-hadoop jar) runs it as the
 * auxiliary service {@code dtap_cnode}, configured in core-site.xml, and a user's MapReduce job
 * whose eight map tasks (eight task JVMs) each read one input reads it from the store once.
 */
class ITestCacheNodeDropIn {
  private static final int MIB = Integer.getInteger("dtap.e2e.cnode.mib", 64);

  @Test
  @Tag("smoke")
  void eightTaskJvmsReadOneInputFromTheStoreOnce() throws Exception {
    MinioFixture minio = MinioFixture.get();
    byte[] data = new byte[MIB << 20];
    new Random(16).nextBytes(data);
    CRC32 crc = new CRC32();
    crc.update(data);
    String secret = "dtapCanary7Q-cnode-e2e-" + Long.toHexString(System.nanoTime());
    File socket;
    try (MapReduceCluster cluster = MapReduceCluster.start("cnode", "lake", false, null, secret)) {
      socket = new File(cluster.dir, "cnode/socket");
      assertThat(socket).as("the NodeManager's dtap_cnode service listens").exists();
      minio
          .client()
          .putObject(
              b -> b.bucket(cluster.bucket).key("lake/reference.bin"), RequestBody.fromBytes(data));
      long before = minio.trafficSentBytes();
      String out = cluster.hdfs + "/reread/out";
      ChildJvm.Result job =
          cluster
              .client("reread")
              .run("dev.dtap.e2e.hadoop.ReReadJob", 15, "dtap://lake/reference.bin", out, "8");
      assertThat(job.exit).as("the job; its log:\n" + job.tail()).isZero();
      long store = minio.trafficSentBytes() - before;

      List<String> lines = cluster.outputLines(out);
      assertThat(lines).hasSize(8);
      // each task: what it read, and the pages (and bytes) its JVM took from the store itself
      long backendReads = 0;
      long backendBytes = 0;
      for (String line : lines) {
        String[] f = line.substring(line.indexOf('\t') + 1).split(" ");
        assertThat(f[0] + " " + f[1]).as(line).isEqualTo(crc.getValue() + " " + data.length);
        backendReads += Long.parseLong(f[2]);
        backendBytes += Long.parseLong(f[3]);
      }

      // a finished job's task JVMs may still be exiting, their last pages on the service's disk
      // threads: poll until the service has them all (each poll is a JVM: a few dozen at most)
      Map<String, Long> service =
          Await.value(
              "the service counting " + MIB + " fills",
              Duration.ofSeconds(2),
              () -> {
                Map<String, Long> m = serviceStats(cluster, secret);
                return m != null
                        && m.getOrDefault("cnode_fills", 0L) >= MIB
                        && m.getOrDefault("cnode_fills_in_progress", 0L) == 0
                    ? m
                    : null;
              });
      System.out.printf(
          "cnode e2e: 8 task JVMs read a %d MiB input: %d bytes from the store (%.3fx); the"
              + " service: %s%n",
          MIB, store, (double) store / data.length, service);
      // every backend read asks for exactly its range, so the store sent what the tasks took
      assertThat(store)
          .as("bytes MinIO sent for 8 task JVMs reading the input, against what they took")
          .isEqualTo(backendBytes);
      // every page of every task came from the service or, once, from the store
      assertThat(service.get("cnode_hits") + backendReads)
          .as("pages the service served and pages the tasks read from the store; %s", service)
          .isEqualTo(8L * MIB);
      assertThat(backendReads)
          .as("pages the tasks read from the store: each once, filled for all; %s", service)
          .isEqualTo(MIB);
      assertThat(service.get("cnode_fills"))
          .as("the service's counters: %s", service)
          .isEqualTo((long) MIB);
      assertThat(store).as("bytes from the store").isEqualTo(data.length);
    }
    assertThat(socket).as("the service stopped with the NodeManager").doesNotExist();
  }

  /** The service's counters by {@code dtap cache stats}, or null when the tool failed. */
  private static Map<String, Long> serviceStats(MapReduceCluster cluster, String secret)
      throws Exception {
    ChildJvm.Result stats =
        cluster.client("stats").run("dev.dtap.tools.DtapTool", 5, "cache", "stats", "--json");
    assertThat(stats.stdout).doesNotContain(secret);
    if (stats.exit != 0) {
      System.out.println("dtap cache stats failed; polling again:\n" + stats.tail());
      return null;
    }
    Map<String, Long> service = new HashMap<>();
    for (JsonNode row : new ObjectMapper().readTree(stats.stdout).get("cache service")) {
      service.put(row.get("counter").asText(), row.get("value").asLong());
    }
    return service;
  }
}
