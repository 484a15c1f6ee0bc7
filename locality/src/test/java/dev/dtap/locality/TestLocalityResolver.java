package dev.dtap.locality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.config.InvalidConfigurationException;
import dev.dtap.fs.testing.Await;
import dev.dtap.fs.testing.ConfigDocs;
import dev.dtap.fs.testing.LocalTaps;
import dev.dtap.fs.testing.LogCapture;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The resolver through a dtap filesystem with locality on, over a local tap. */
class TestLocalityResolver {
  private static final List<String> HOSTS =
      Arrays.asList(
          "nm-001.example.com", "nm-002.example.com", "nm-003.example.com", "nm-004.example.com");

  private File root;
  private Configuration conf;
  private FileSystem fs;

  @BeforeEach
  void setUp() throws IOException {
    root = LocalTaps.newDir("locality");
    conf = LocalTaps.addTap(LocalTaps.newConf(), "loc", root);
    conf.set("fs.dtap.tap.loc.locality", "true");
    conf.set("fs.dtap.tap.loc.block.size", "64k");
    conf.set("fs.dtap.locality.hosts", String.join(",", HOSTS));
    fs = LocalTaps.open(conf, "loc");
  }

  @AfterEach
  void tearDown() throws IOException {
    fs.close();
  }

  private Path file(String name, int bytes) throws IOException {
    Path p = LocalTaps.path("loc", name);
    try (FSDataOutputStream out = fs.create(p, true)) {
      out.write(new byte[bytes]);
    }
    return p;
  }

  private long counter(String name) {
    IOStatistics stats = ((IOStatisticsSource) fs).getIOStatistics();
    Long v = stats.counters().get(name);
    return v == null ? 0 : v;
  }

  @Test
  void blocksTileTheFileWithMemberHosts() throws IOException {
    Path p = file("/data/part-0", 200 * 1024 + 17);
    FileStatus st = fs.getFileStatus(p);
    assertThat(st.getBlockSize()).isEqualTo(64 * 1024);
    BlockLocation[] blocks = fs.getFileBlockLocations(st, 0, st.getLen());
    assertThat(blocks).hasSize(4);
    long expected = 0;
    for (BlockLocation b : blocks) {
      assertThat(b.getOffset()).isEqualTo(expected);
      expected += b.getLength();
      assertThat(b.getHosts()).hasSize(3).doesNotHaveDuplicates();
      assertThat(HOSTS).containsAll(Arrays.asList(b.getHosts()));
      assertThat(b.getNames()[0]).isEqualTo(b.getHosts()[0] + ":9866");
    }
    assertThat(expected).isEqualTo(st.getLen());
    // a range returns the blocks that overlap it, whole
    BlockLocation[] middle = fs.getFileBlockLocations(st, 70 * 1024, 10);
    assertThat(middle).hasSize(1);
    assertThat(middle[0].getOffset()).isEqualTo(64 * 1024);
    assertThat(middle[0].getHosts()).containsExactly(blocks[1].getHosts());
    // the same block always maps to the same hosts
    assertThat(fs.getFileBlockLocations(st, 0, st.getLen())[2].getHosts())
        .containsExactly(blocks[2].getHosts());
    assertThat(counter("dtap_backend_location_calls")).isZero();
    assertThat(counter(HashingLocalityResolver.LOOKUPS)).isEqualTo(3);
  }

  @Test
  void zeroLengthFilesGetOneEmptyLocation() throws IOException {
    Path p = file("/empty", 0);
    BlockLocation[] blocks = fs.getFileBlockLocations(fs.getFileStatus(p), 0, 0);
    assertThat(blocks).hasSize(1);
    assertThat(blocks[0].getLength()).isZero();
    assertThat(blocks[0].getOffset()).isZero();
  }

  @Test
  void listingsNeverAskTheBackendForLocations() throws IOException {
    for (int i = 0; i < 20; i++) {
      file("/many/f" + i, 100 * 1024);
    }
    RemoteIterator<LocatedFileStatus> it = fs.listLocatedStatus(LocalTaps.path("loc", "/many"));
    int n = 0;
    while (it.hasNext()) {
      LocatedFileStatus st = it.next();
      assertThat(st.getBlockLocations()).hasSize(2);
      assertThat(HOSTS).containsAll(Arrays.asList(st.getBlockLocations()[0].getHosts()));
      n++;
    }
    assertThat(n).isEqualTo(20);
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(LocalTaps.path("loc", "/"), true);
    while (files.hasNext()) {
      assertThat(files.next().getBlockLocations()).isNotEmpty();
    }
    assertThat(counter("dtap_backend_location_calls")).isZero();
    assertThat(counter("dtap_backend_list_located_calls")).isZero();
    assertThat(
            fs.hasPathCapability(
                LocalTaps.path("loc", "/"), "fs.capability.virtual.block.locations"))
        .isTrue();
  }

  @Test
  void hostsFileIsReReadWhenItChanges() throws Exception {
    File hosts = new File(LocalTaps.newDir("hostsfile"), "hosts");
    Files.write(
        hosts.toPath(),
        "# cluster\nnm-a.example.com\nnm-b.example.com # rack 1\n\n"
            .getBytes(StandardCharsets.UTF_8));
    Configuration c = LocalTaps.addTap(LocalTaps.newConf(), "hf", root);
    c.set("fs.dtap.tap.hf.locality", "true");
    c.set("fs.dtap.locality.hosts.file", hosts.getPath());
    c.set("fs.dtap.locality.refresh", "100ms");
    try (FileSystem f = LocalTaps.open(c, "hf")) {
      Path p = LocalTaps.path("hf", "/x");
      try (FSDataOutputStream out = f.create(p)) {
        out.write(1);
      }
      List<String> seen = hostsEventually(f, p, 2);
      assertThat(seen).containsExactlyInAnyOrder("nm-a.example.com", "nm-b.example.com");
      Files.write(hosts.toPath(), "nm-c.example.com\n".getBytes(StandardCharsets.UTF_8));
      assertThat(hosts.setLastModified(System.currentTimeMillis() + 5000)).isTrue();
      assertThat(hostsEventually(f, p, 1)).containsExactly("nm-c.example.com");
    }
  }

  /** Polls until the locations of a 1-byte file name {@code count} hosts (membership refreshes). */
  private static List<String> hostsEventually(FileSystem f, Path p, int count) throws Exception {
    return Await.value(
        "locations naming " + count + " hosts",
        Duration.ofSeconds(30),
        () -> {
          List<String> hosts =
              Arrays.asList(f.getFileBlockLocations(f.getFileStatus(p), 0, 1)[0].getHosts());
          return hosts.size() == count ? hosts : null;
        });
  }

  @Test
  void beforeMembershipIsKnownLookupsFallBackAndSaySoOnce() throws Exception {
    Configuration c = LocalTaps.addTap(LocalTaps.newConf(), "fb", root);
    c.set("fs.dtap.tap.fb.locality", "true");
    // a ResourceManager that is not there: membership never arrives
    c.set("fs.dtap.locality.membership", "yarn");
    c.set("yarn.resourcemanager.address", "127.0.0.1:1");
    c.set("fs.dtap.locality.refresh", "1h");
    c.set("fs.dtap.locality.fallback", "none");
    c.set("fs.dtap.block.size", "4k");
    try (LogCapture logs = LogCapture.start();
        FileSystem f = LocalTaps.open(c, "fb")) {
      Path p = LocalTaps.path("fb", "/x");
      try (FSDataOutputStream out = f.create(p)) {
        out.write(new byte[10_000]);
      }
      BlockLocation[] first = f.getFileBlockLocations(f.getFileStatus(p), 0, 10_000);
      BlockLocation[] second = f.getFileBlockLocations(f.getFileStatus(p), 0, 10_000);
      assertThat(first).hasSize(3);
      assertThat(first[0].getHosts()).isEmpty();
      assertThat(second[2].getLength()).isEqualTo(10_000 - 8192);
      IOStatistics stats = ((IOStatisticsSource) f).getIOStatistics();
      assertThat(stats.counters().get(HashingLocalityResolver.FALLBACKS)).isEqualTo(2);
      String text = logs.text();
      assertThat(text.split("membership for tap 'fb' is not known yet", -1)).hasSize(2);
    }
  }

  @Test
  void fallbackToTheBackendIsCounted() throws Exception {
    Configuration c = LocalTaps.addTap(LocalTaps.newConf(), "fb2", root);
    c.set("fs.dtap.tap.fb2.locality", "true");
    c.set("fs.dtap.locality.membership", "yarn");
    c.set("yarn.resourcemanager.address", "127.0.0.1:2");
    c.set("fs.dtap.locality.refresh", "59m");
    try (FileSystem f = LocalTaps.open(c, "fb2")) {
      Path p = LocalTaps.path("fb2", "/y");
      try (FSDataOutputStream out = f.create(p)) {
        out.write(1);
      }
      BlockLocation[] b = f.getFileBlockLocations(f.getFileStatus(p), 0, 1);
      assertThat(b[0].getHosts()).containsExactly("localhost");
      assertThat(
              ((IOStatisticsSource) f)
                  .getIOStatistics()
                  .counters()
                  .get("dtap_backend_location_calls"))
          .isEqualTo(1);
    }
  }

  @Test
  void badSettingsFailWithTheKey() {
    Configuration c = LocalTaps.addTap(LocalTaps.newConf(), "bad", root);
    c.set("fs.dtap.tap.bad.locality", "true");
    c.set("fs.dtap.locality.replicas", "0");
    assertThatThrownBy(() -> LocalTaps.open(c, "bad"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("fs.dtap.locality.replicas");
    Configuration d = LocalTaps.addTap(LocalTaps.newConf(), "bad", root);
    d.set("fs.dtap.tap.bad.locality", "true");
    d.set("fs.dtap.locality.membership", "static");
    assertThatThrownBy(() -> LocalTaps.open(d, "bad"))
        .hasMessageContaining("fs.dtap.locality.hosts");
    Configuration e = LocalTaps.addTap(LocalTaps.newConf(), "bad", root);
    e.set("fs.dtap.tap.bad.locality", "true");
    e.set("fs.dtap.tap.bad.block.size", "1k");
    assertThatThrownBy(() -> LocalTaps.open(e, "bad"))
        .hasMessageContaining("fs.dtap.tap.bad.block.size");
  }

  @Test
  void keysAreDocumented() throws Exception {
    ConfigDocs.assertDocumented(LocalityKeys.all());
  }
}
