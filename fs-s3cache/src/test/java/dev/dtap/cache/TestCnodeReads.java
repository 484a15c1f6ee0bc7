package dev.dtap.cache;

import static dev.dtap.cache.CacheTestSupport.PAGE;
import static dev.dtap.cache.CacheTestSupport.counter;
import static dev.dtap.cache.CacheTestSupport.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.cache.cnode.CacheNode;
import dev.dtap.cache.cnode.CacheNodes;
import dev.dtap.cache.cnode.CnodeKeys;
import dev.dtap.fs.spi.TapExtensions;
import dev.dtap.fs.testing.Await;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A cached local tap reading through a cache service in this JVM, over its real socket. */
class TestCnodeReads {
  private static final int LENGTH = 40 * PAGE + 123;
  private Configuration conf;
  private CacheNode node;
  private byte[] data;
  private Path file;
  private Configuration service;

  @BeforeEach
  void setUp() throws IOException {
    File root = LocalTaps.newDir("cnroot");
    File work = LocalTaps.newDir("cn");
    data = CacheTestSupport.randomFile(new File(root, "f.bin"), LENGTH, 11);
    conf = CacheTestSupport.cachedTap("c", root, new File(work, "client-pages"));
    conf.set("fs.dtap.cache.scan.admission", "first-read");
    conf.set(CnodeKeys.SOCKET.name(), new File(work, "s").getAbsolutePath());
    conf.set(CnodeKeys.SECRET.name(), "dtapCanary7Q-cnode-reads-secret");
    conf.set(CnodeKeys.PORT.name(), "0");
    conf.set(CnodeKeys.BIND_HOST.name(), "127.0.0.1");
    conf.set(CnodeKeys.CONNECT_TIMEOUT.name(), "10s");
    conf.set(CnodeKeys.REQUEST_TIMEOUT.name(), "10s");
    conf.set(CnodeKeys.BREAKER_FAILURES.name(), "1");
    conf.set(CnodeKeys.BREAKER_OPEN.name(), "1ms");
    service = new Configuration(conf);
    service.set("fs.dtap.cache.dirs", new File(work, "service-pages").getAbsolutePath());
    node = CacheNode.start(service);
    file = LocalTaps.path("c", "/f.bin");
  }

  @AfterEach
  void tearDown() {
    if (node != null) {
      node.close();
    }
  }

  private byte[] readWhole(FileSystem fs) throws IOException {
    try (FSDataInputStream in = fs.open(file)) {
      return readAll(in, 100_000);
    }
  }

  @Test
  void aNewJvmReadsWhatAnotherFilledWithoutTheBackend() throws Exception {
    try (FileSystem fs = LocalTaps.open(conf, "c")) {
      assertThat(readWhole(fs)).isEqualTo(data);
      CacheAdmin.flushWrites();
      assertThat(counter(fs, CacheCounters.BYTES_BACKEND)).isEqualTo(LENGTH);
    }
    assertThat(node.stats().get("cnode_fills")).isEqualTo(41);
    assertThat(PageStore.openStores()).as("the last filesystem released the store").isEmpty();
    // a fresh store, client and memory tier: as a new task JVM on the host
    try (FileSystem fs = LocalTaps.open(conf, "c")) {
      assertThat(readWhole(fs)).isEqualTo(data);
      assertThat(counter(fs, CacheCounters.BYTES_BACKEND)).isZero();
      assertThat(counter(fs, CacheCounters.BYTES_DISK)).isEqualTo(LENGTH);
    }
    assertThat(node.stats().get("cnode_short_circuit_grants")).isEqualTo(41);
  }

  @Test
  void closingRightAfterTheLastReadWaitsUntilTheServiceHasEveryPage() throws Exception {
    node.close();
    HeldDisk disk = new HeldDisk();
    node = CacheNodes.start(service, disk);
    // no flush before close: a task JVM closes its filesystems and exits
    FileSystem fs = LocalTaps.open(conf, "c");
    assertThat(readWhole(fs)).isEqualTo(data);
    Await.until("the service writing a page", Duration.ofMinutes(1), () -> disk.writes.get() > 0);
    CompletableFuture<Void> closed =
        CompletableFuture.runAsync(
            () -> {
              try {
                fs.close();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    try {
      assertThat(closed).as("close waits for the pages handed over").isNotDone();
    } finally {
      disk.release.countDown();
    }
    closed.get(1, TimeUnit.MINUTES);
    assertThat(node.stats().get("cnode_fills")).isEqualTo(41);
    assertThat(node.stats().get("cnode_pages")).isEqualTo(41);
  }

  @Test
  void aPageOneJvmMetIsCachedWhenTheNextJvmMeetsIt() throws Exception {
    conf.set("fs.dtap.cache.scan.admission", "second-read");
    try (FileSystem fs = LocalTaps.open(conf, "c")) {
      assertThat(readWhole(fs)).isEqualTo(data);
      CacheAdmin.flushWrites();
      // the host's other JVMs may hold the pages around each one: an open-ended pass through the
      // backend would be cut at each of them, so every page is one exact range of its own
      assertThat(counter(fs, CacheCounters.BACKEND_READS))
          .as("backend reads of a scan streaming through, 100,000 bytes a read")
          .isEqualTo(41);
      assertThat(counter(fs, CacheCounters.BYTES_BACKEND)).isEqualTo(LENGTH);
    }
    assertThat(node.stats().get("cnode_pages")).as("a first meeting streams through").isZero();
    // a fresh store: as the next task JVM on the host; the service remembers the first one's reads
    try (FileSystem fs = LocalTaps.open(conf, "c")) {
      assertThat(readWhole(fs)).isEqualTo(data);
      CacheAdmin.flushWrites();
    }
    assertThat(node.stats().get("cnode_pages")).isEqualTo(41);
    try (FileSystem fs = LocalTaps.open(conf, "c")) {
      assertThat(readWhole(fs)).isEqualTo(data);
      assertThat(counter(fs, CacheCounters.BYTES_BACKEND)).isZero();
    }
  }

  @Test
  void randomReadsReuseTheDescriptorsTheyHold() throws Exception {
    try (FileSystem fs = LocalTaps.open(conf, "c")) {
      readWhole(fs);
      CacheAdmin.flushWrites();
    }
    long lookups = node.stats().get("cnode_lookups");
    Random r = new Random(5);
    try (FileSystem fs = LocalTaps.open(conf, "c");
        FSDataInputStream in =
            fs.openFile(file).opt("fs.option.openfile.read.policy", "random").build().get()) {
      byte[] buf = new byte[1000];
      for (int i = 0; i < 400; i++) {
        long pos = r.nextInt(LENGTH - buf.length);
        in.readFully(pos, buf);
        for (int j = 0; j < buf.length; j++) {
          assertThat(buf[j]).isEqualTo(data[(int) pos + j]);
        }
      }
      assertThat(counter(fs, CacheCounters.BYTES_BACKEND)).isZero();
    }
    assertThat(node.stats().get("cnode_lookups") - lookups)
        .as("at most one lookup per page: re-reads use the open page file")
        .isLessThanOrEqualTo(41);
  }

  @Test
  void theServiceDyingMidReadFailsNoReadAndARestartedOneIsFoundAgain() throws Exception {
    try (FileSystem fs = LocalTaps.open(conf, "c");
        FSDataInputStream in = fs.open(file)) {
      byte[] buf = new byte[LENGTH];
      in.readFully(buf, 0, 10 * PAGE);
      node.close(); // mid-read
      node = null;
      in.readFully(buf, 10 * PAGE, LENGTH - 10 * PAGE);
      assertThat(buf).isEqualTo(data);
      assertThat(counter(fs, CacheCounters.CNODE_FALLBACKS)).isPositive();
      // the pages it stored before it died are on its disk: a restarted service serves them
      service = new Configuration(conf);
      service.set(
          "fs.dtap.cache.dirs",
          new File(new File(conf.get(CnodeKeys.SOCKET.name())).getParentFile(), "service-pages")
              .getAbsolutePath());
      node = CacheNode.start(service);
      assertThat(node.stats().get("cnode_pages")).isPositive();
    }
    try (FileSystem fs = LocalTaps.open(conf, "c")) {
      assertThat(readWhole(fs)).isEqualTo(data);
    }
    assertThat(node.stats().get("cnode_hits")).as("the client reconnected").isPositive();
  }

  @Test
  void theOperatorsViewComesFromTheService() throws Exception {
    try (FileSystem fs = LocalTaps.open(conf, "c")) {
      readWhole(fs);
      TapCacheAdmin admin = TapExtensions.find(fs, TapCacheAdmin.class).get();
      admin.awaitWrites();
      CachedFile f = admin.inspect(file);
      assertThat(f.pagesOnDisk()).isEqualTo(41);
      assertThat(admin.directories()).hasSize(1);
      assertThat(admin.directories().get(0).pages()).isEqualTo(41);
      assertThat(admin.serviceStatistics()).containsEntry("cnode_pages", 41L);
      admin.evict(file);
      assertThat(admin.inspect(file).pagesOnDisk()).isZero();
    }
  }
}
