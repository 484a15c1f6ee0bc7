package dev.dtap.locality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.Await;
import dev.dtap.fs.testing.LocalTaps;
import dev.dtap.fs.testing.SilentServer;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Locality never waits on a ResourceManager that is slow: here one that accepts connections and
 * never answers. Nothing but split planning asks it, planning falls back after the timeout, and the
 * read of the node list ends within the timeout too.
 */
class TestMembershipWait {
  private SilentServer rm;
  private Configuration conf;
  private FileSystem fs;

  @BeforeEach
  void setUp() throws IOException {
    rm = new SilentServer();
    File root = LocalTaps.newDir("membership-wait");
    Configuration c = LocalTaps.addTap(LocalTaps.newConf(), "mw", root);
    c.set("fs.dtap.tap.mw.locality", "true");
    c.set("fs.dtap.locality.membership", "yarn");
    c.set("yarn.resourcemanager.address", "127.0.0.1:" + rm.port());
    // a refresh and timeout no other test uses: this test's own membership tracker
    c.set("fs.dtap.locality.refresh", "47m");
    c.set("fs.dtap.locality.timeout", "300ms");
    c.set("fs.dtap.locality.fallback", "none");
    c.set("fs.dtap.block.size", "4k");
    c.set("hadoop.tmp.dir", new File(root, "hadoop-tmp").getPath());
    conf = c;
    fs = LocalTaps.open(c, "mw");
  }

  @AfterEach
  void tearDown() throws IOException {
    fs.close();
    rm.close();
  }

  @Test
  void listingsOpensAndReadsNeverAskTheResourceManager() throws Exception {
    Path dir = LocalTaps.path("mw", "/d");
    Path p = new Path(dir, "f");
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(new byte[10_000]);
    }
    assertThat(fs.getFileStatus(p).getLen()).isEqualTo(10_000);
    assertThat(fs.listStatus(dir)).hasSize(1);
    assertThat(fs.globStatus(new Path(dir, "*"))).hasSize(1);
    assertThat(fs.exists(p)).isTrue();
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, new byte[10_000]);
    }
    assertThat(fs.getContentSummary(dir).getLength()).isEqualTo(10_000);
    // as an operator runs it: FsShell opens its own filesystem, with a tracker of its own
    FsShell shell = new FsShell(new Configuration(conf));
    try {
      assertThat(ToolRunner.run(shell, new String[] {"-ls", "-R", dir.toString()})).isZero();
      assertThat(ToolRunner.run(shell, new String[] {"-cat", p.toString()})).isZero();
    } finally {
      shell.close();
    }
    assertThat(rm.accepted()).as("connections to the ResourceManager").isZero();
    assertThat(counter("dtap_locality_membership_refreshes")).isZero();

    BlockLocation[] blocks = fs.getFileBlockLocations(fs.getFileStatus(p), 0, 10_000);
    assertThat(blocks).hasSize(3);
    assertThat(blocks[0].getHosts()).isEmpty();
    assertThat(counter("dtap_locality_fallbacks")).isEqualTo(1);
    // split planning is what asks, on the refresh thread
    Await.until("the ResourceManager asked", Duration.ofSeconds(30), () -> rm.accepted() > 0);
  }

  @Test
  void planningFallsBackAndTheRefreshEndsWhileTheResourceManagerStaysSilent() throws Exception {
    Path p = LocalTaps.path("mw", "/g");
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(new byte[5_000]);
    }
    for (int i = 0; i < 3; i++) {
      BlockLocation[] blocks = fs.getFileBlockLocations(fs.getFileStatus(p), 0, 5_000);
      assertThat(blocks).hasSize(2);
      assertThat(blocks[1].getHosts()).isEmpty();
    }
    assertThat(counter("dtap_locality_fallbacks")).isEqualTo(3);
    assertThat(counter("dtap_backend_location_calls")).isZero();
    // the read of the node list gives up within the timeout (YARN's own would hold the refresh
    // thread for minutes) and is counted as a failure; the server never answered a byte
    Await.until(
        "a failed membership read",
        Duration.ofSeconds(60),
        () -> counter("dtap_locality_membership_failures") > 0);
    assertThat(rm.accepted()).isPositive();
    assertThat(counter("dtap_locality_members")).isZero();
  }

  @Test
  void aSavedMembershipYoungerThanTheRefreshSparesTheWaitAndTheCall() throws Exception {
    String key = LocalityConfig.parse(conf, "mw").membershipKey(conf);
    MembershipState.forUser(conf, key).save(Arrays.asList("nm-a", "nm-b", "nm-c"));
    Path p = LocalTaps.path("mw", "/s");
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(new byte[5_000]);
    }
    BlockLocation[] blocks = fs.getFileBlockLocations(fs.getFileStatus(p), 0, 5_000);
    assertThat(blocks[0].getHosts()).containsExactlyInAnyOrder("nm-a", "nm-b", "nm-c");
    assertThat(counter("dtap_locality_fallbacks")).isZero();
    assertThat(counter("dtap_locality_members")).isEqualTo(3);
    // the next read of the source is due when the saved answer is a refresh interval old
    assertThat(rm.accepted()).isZero();
  }

  @Test
  void aSavedMembershipOlderThanTheRefreshIsUsedWhileTheSourceIsReadAgain() throws Exception {
    String key = LocalityConfig.parse(conf, "mw").membershipKey(conf);
    MembershipState saved = MembershipState.forUser(conf, key);
    saved.save(Arrays.asList("nm-x", "nm-y"));
    long refreshMillis = TimeUnit.MINUTES.toMillis(47);
    Files.setLastModifiedTime(
        saved.file(), FileTime.fromMillis(System.currentTimeMillis() - 2 * refreshMillis));
    Path p = LocalTaps.path("mw", "/t");
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(new byte[100]);
    }
    BlockLocation[] blocks = fs.getFileBlockLocations(fs.getFileStatus(p), 0, 100);
    assertThat(blocks[0].getHosts()).containsExactlyInAnyOrder("nm-x", "nm-y");
    assertThat(counter("dtap_locality_fallbacks")).isZero();
    // due already: the refresh thread asks the (silent) ResourceManager at once
    Await.until("the ResourceManager asked", Duration.ofSeconds(30), () -> rm.accepted() > 0);
  }

  private long counter(String name) {
    Long v = ((IOStatisticsSource) fs).getIOStatistics().counters().get(name);
    if (v == null) {
      v = ((IOStatisticsSource) fs).getIOStatistics().gauges().get(name);
    }
    return v == null ? 0 : v;
  }
}
