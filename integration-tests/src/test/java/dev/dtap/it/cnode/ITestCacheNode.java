package dev.dtap.it.cnode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.Await;
import dev.dtap.it.fixtures.CnodeProcess;
import dev.dtap.it.fixtures.FreePorts;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.ReaderProcess;
import dev.dtap.it.fixtures.RepoRoot;
import java.io.File;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The host's cache service as it runs: a process of its own, task JVMs as processes of their own
 * reading an object in MinIO through an S3 tap, the service killed with SIGKILL and restarted, two
 * services standing for two hosts, and two tenants. The object is 64 MiB here ({@code
 * -Ddtap.cnode.mib} for more).
 */
class ITestCacheNode {
  private static final int MIB = Integer.getInteger("dtap.cnode.mib", 64);
  private static final int SIZE = MIB << 20;
  private static MinioFixture minio;
  private static String bucket;
  private static long crc;
  private final List<CnodeProcess> services = new ArrayList<>();

  @BeforeAll
  static void object() throws Exception {
    minio = MinioFixture.get();
    bucket = minio.createBucket("cnode");
    byte[] data = new byte[SIZE];
    new Random(2026).nextBytes(data);
    CRC32 c = new CRC32();
    c.update(data);
    crc = c.getValue();
    minio
        .client()
        .putObject(b -> b.bucket(bucket).key("data/object.bin"), RequestBody.fromBytes(data));
  }

  @AfterEach
  void stopServices() throws InterruptedException {
    for (CnodeProcess s : services) {
      s.close();
    }
  }

  private CnodeProcess service(String host, int port, String peers) throws Exception {
    CnodeProcess s = new CnodeProcess(host, port, peers).start();
    services.add(s);
    return s;
  }

  /** A task JVM's configuration: an S3 tap over the object, cached through the service. */
  private static Configuration client(CnodeProcess service, String accessKey, String secretKey) {
    Configuration conf = service.clientConf();
    minio.addTap(conf, "lake", bucket, "data", accessKey, secretKey);
    conf.set("fs.dtap.impl", "dev.dtap.fs.DataTapFileSystem");
    conf.setBoolean("fs.dtap.tap.lake.cache", true);
    conf.set("fs.dtap.cache.memory.size", "0"); // every pass asks the host
    conf.set(
        "fs.dtap.cache.dirs",
        new File(RepoRoot.data(), "cn-client-" + System.nanoTime()).getAbsolutePath());
    return conf;
  }

  private static Configuration client(CnodeProcess service) {
    return client(service, minio.accessKey(), minio.secretKey());
  }

  @Test
  void fourTaskJvmsReadingOneColdObjectReadItFromTheStoreOnce() throws Exception {
    CnodeProcess s = service("h1", 0, "");
    long before = minio.trafficSentBytes();
    List<ReaderProcess> readers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      readers.add(
          ReaderProcess.start("cold" + i, client(s), "dtap://lake/object.bin", crc, 1, null));
    }
    long backend = 0;
    for (ReaderProcess r : readers) {
      Map<String, Long> m = r.result();
      assertThat(m.get("mismatches")).as("wrong bytes; see " + r.output()).isZero();
      backend += m.get("backend");
    }
    long store = minio.trafficSentBytes() - before;
    System.out.printf(
        "cnode: 4 task JVMs read a cold %d MiB object: %d bytes from the store by MinIO's count,"
            + " %d by dtap's (%.3fx the object)%n",
        MIB, store, backend, (double) store / SIZE);
    assertThat(backend)
        .as("bytes the readers read from the store")
        .isLessThanOrEqualTo(SIZE * 105L / 100);
    assertThat(store).as("bytes MinIO sent").isLessThanOrEqualTo(SIZE * 105L / 100);
    assertThat(s.stat("cnode_fills")).isEqualTo(MIB);
  }

  @Test
  void killingTheServiceMidReadFailsNoReadAndARestartedServiceHasItsPages() throws Exception {
    CnodeProcess s = service("h2", 0, "");
    File stop = new File(RepoRoot.data(), "cn-stop-" + System.nanoTime());
    Configuration conf = client(s);
    // few open page files, so that passes keep asking the service (held ones outlive it)
    conf.set("fs.dtap.cnode.descriptors", "8");
    ReaderProcess r = ReaderProcess.start("kill", conf, "dtap://lake/object.bin", crc, -1, stop);
    r.awaitPass(1); // the service has the object now
    r.awaitPass(2); // and served it
    // a late answer in the first passes leaves pages to background fills: wait for every page
    Await.until(
        "the service has the object",
        Duration.ofMinutes(2),
        () -> s.polledStat("cnode_pages") == MIB);
    s.kill();
    r.awaitPass(4); // passes without the service: from the store
    s.start(); // over the same directory
    long recovered =
        Await.value(
            "the restarted service answers",
            Duration.ofMinutes(1),
            () -> {
              long pages = s.polledStat("cnode_pages");
              return pages >= 0 ? pages : null;
            });
    Await.until(
        "the task JVM found the restarted service",
        Duration.ofMinutes(2),
        () -> s.polledStat("cnode_hits") > 0);
    Files.createFile(stop.toPath());
    Map<String, Long> m = r.result();
    System.out.printf(
        "cnode: killed mid-read: %d passes, %d mismatches, %d fallbacks; restarted with %d pages%n",
        m.get("passes"), m.get("mismatches"), m.get("fallbacks"), recovered);
    assertThat(m.get("mismatches")).as("wrong bytes; see " + r.output()).isZero();
    assertThat(m.get("fallbacks")).as("reads went around the dead service").isPositive();
    assertThat(recovered).as("pages recovered from disk").isEqualTo(MIB);
  }

  @Test
  void twoHostsServeEachOtherSoTheSecondReadsNothingFromTheStore() throws Exception {
    int portA = FreePorts.reserve();
    int portB = FreePorts.reserve();
    String peers = "hostA=127.0.0.1:" + portA + ",hostB=127.0.0.1:" + portB;
    CnodeProcess a = service("hostA", portA, peers);
    CnodeProcess b = service("hostB", portB, peers);
    Configuration onA = locality(client(a));
    Configuration onB = locality(client(b));
    Map<String, Long> first =
        ReaderProcess.start("hostA", onA, "dtap://lake/object.bin", crc, 1, null).result();
    assertThat(first.get("mismatches")).isZero();
    Await.until(
        "host A handed host B the pages B owns", Duration.ofMinutes(2), () -> offersArrived(a, b));
    long before = minio.trafficSentBytes();
    Map<String, Long> second =
        ReaderProcess.start("hostB", onB, "dtap://lake/object.bin", crc, 1, null).result();
    long store = minio.trafficSentBytes() - before;
    System.out.printf(
        "cnode: host B read the %d MiB object host A cached: %d bytes from the store (dtap), %d"
            + " (MinIO); B asked A %d times, A served %d%n",
        MIB,
        second.get("backend"),
        store,
        b.stat("cnode_peer_reads_asked"),
        a.stat("cnode_peer_reads_served"));
    assertThat(second.get("mismatches")).isZero();
    assertThat(second.get("backend")).as("bytes host B read from the store").isZero();
    assertThat(store).as("object bytes MinIO sent (a HEAD at most)").isLessThan(64 << 10);
    assertThat(a.stat("cnode_peer_reads_served")).isPositive();
    // another tenant on host B: the same tap name and object, other keys; nothing through peers
    String other = "cnodepeer";
    String otherSecret = "dtapCanary7Q-peer-" + Long.toHexString(System.nanoTime());
    minio.createUser(other, otherSecret, bucket);
    Map<String, Long> tenant =
        ReaderProcess.start(
                "hostB-other",
                locality(client(b, other, otherSecret)),
                "dtap://lake/object.bin",
                crc,
                1,
                null)
            .result();
    assertThat(tenant.get("mismatches")).isZero();
    assertThat(tenant.get("backend"))
        .as("another tenant reads the store, never a page of the first, locally or from a peer")
        .isEqualTo(SIZE);
  }

  /** Whether host B took every offer A counted as sent (A's count read once: -1 is no answer). */
  private static boolean offersArrived(CnodeProcess a, CnodeProcess b) {
    long sent = a.polledStat("cnode_peer_offers_sent");
    return sent > 0 && b.polledStat("cnode_offers") == sent;
  }

  /** Both hosts in the placement, with blocks of 4 MiB: each owns about half the object. */
  private static Configuration locality(Configuration conf) {
    conf.setBoolean("fs.dtap.tap.lake.locality", true);
    conf.set("fs.dtap.locality.membership", "static");
    conf.set("fs.dtap.locality.hosts", "hostA,hostB");
    conf.set("fs.dtap.block.size", "4m");
    return conf;
  }

  @Test
  void taskJvmsWithOtherCredentialsShareNoPage() throws Exception {
    CnodeProcess s = service("h3", 0, "");
    String other = "cnodeother";
    String otherSecret = "dtapCanary7Q-other-" + Long.toHexString(System.nanoTime());
    minio.createUser(other, otherSecret, bucket);
    Map<String, Long> first =
        ReaderProcess.start("tenant1", client(s), "dtap://lake/object.bin", crc, 1, null).result();
    assertThat(first.get("backend")).isEqualTo(SIZE);
    // the same tap name over the same bucket, another tenant's keys: nothing is shared
    Map<String, Long> second =
        ReaderProcess.start(
                "tenant2", client(s, other, otherSecret), "dtap://lake/object.bin", crc, 1, null)
            .result();
    assertThat(second.get("mismatches")).isZero();
    assertThat(second.get("backend")).as("the other tenant read from the store").isEqualTo(SIZE);
    assertThat(s.stat("cnode_pages")).as("one copy per tenant").isEqualTo(2L * MIB);
    // the first tenant again: its own pages
    Map<String, Long> again =
        ReaderProcess.start("tenant1b", client(s), "dtap://lake/object.bin", crc, 1, null).result();
    assertThat(again.get("backend")).isZero();
  }
}
