package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FutureDataInputStreamBuilder;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.util.functional.FutureIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;

/** dtap semantics on a local backend: binding, translation, roots, builders, FileContext. */
class TestDataTapFileSystem {
  private File rootA;
  private File rootB;
  private Configuration conf;
  private FileSystem fs;

  @BeforeEach
  void setUp() throws IOException {
    rootA = LocalTaps.newDir("tapa");
    rootB = LocalTaps.newDir("tapb");
    conf = LocalTaps.newConf();
    LocalTaps.addTap(conf, "a", rootA);
    LocalTaps.addTap(conf, "b", rootB);
    fs = LocalTaps.open(conf, "a");
  }

  @AfterEach
  void tearDown() throws IOException {
    fs.close();
  }

  private static void write(FileSystem fs, Path p, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String read(FileSystem fs, Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void writesLandUnderTheTapRootAndStatusesSpeakDtap() throws IOException {
    Path p = LocalTaps.path("a", "/dir/file.txt");
    write(fs, p, "hello");
    assertThat(new File(rootA, "dir/file.txt")).hasContent("hello");
    FileStatus st = fs.getFileStatus(p);
    assertThat(st.getPath()).isEqualTo(p);
    assertThat(st.getLen()).isEqualTo(5);
    assertThat(st.isFile()).isTrue();
    assertThat(fs.listStatus(LocalTaps.path("a", "/dir"))[0].getPath()).isEqualTo(p);
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(LocalTaps.path("a", "/"), true);
    List<Path> listed = new ArrayList<>();
    while (files.hasNext()) {
      LocatedFileStatus f = files.next();
      listed.add(f.getPath());
      assertThat(f.getBlockLocations()).isNotEmpty();
    }
    assertThat(listed).containsExactly(p);
    assertThat(read(fs, p)).isEqualTo("hello");
    assertThat(fs.globStatus(LocalTaps.path("a", "/d*/*.txt")))
        .extracting(FileStatus::getPath)
        .containsExactly(p);
    assertThat(fs.getContentSummary(LocalTaps.path("a", "/")).getLength()).isEqualTo(5);
  }

  @Test
  void relativePathsResolveAgainstTheWorkingDirectory() throws IOException {
    assertThat(fs.getWorkingDirectory().toString()).startsWith("dtap://a/user/");
    fs.setWorkingDirectory(LocalTaps.path("a", "/work"));
    write(fs, new Path("rel"), "x");
    assertThat(new File(rootA, "work/rel")).hasContent("x");
  }

  @Test
  void unknownTapNamesTheTapAndListsConfiguredOnes() {
    assertThatThrownBy(() -> LocalTaps.open(conf, "nope"))
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageContaining("Unknown tap 'nope'")
        .hasMessageContaining("[a, b]");
  }

  @Test
  void emptyAuthorityIsRefused() {
    assertThatThrownBy(() -> FileSystem.newInstance(URI.create("dtap:///x"), conf))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("must name a tap")
        .hasMessageContaining("[a, b]");
  }

  @Test
  void pathsOfAnotherTapAreRejectedAndRenameAcrossTapsFails() throws IOException {
    write(fs, LocalTaps.path("a", "/f"), "x");
    assertThatThrownBy(() -> fs.getFileStatus(LocalTaps.path("b", "/f")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tap 'b'")
        .hasMessageContaining("serves tap 'a'");
    assertThatThrownBy(() -> fs.rename(LocalTaps.path("a", "/f"), LocalTaps.path("b", "/f")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("different taps")
        .hasMessageContaining("distcp");
    assertThat(new File(rootA, "f")).exists();
    assertThat(new File(rootB, "f")).doesNotExist();
  }

  @Test
  void missingFilesAreFileNotFoundSpeakingDtap() {
    Path missing = LocalTaps.path("a", "/no/such/file");
    assertThatThrownBy(() -> fs.getFileStatus(missing))
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageContaining("dtap://a/no/such/file")
        .hasMessageNotContaining(rootA.getPath());
    assertThatThrownBy(() -> fs.open(missing))
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageNotContaining(rootA.getPath());
    assertThatThrownBy(() -> fs.listStatus(missing))
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageNotContaining(rootA.getPath());
  }

  @Test
  void escapingPathsAreRefusedBeforeTheBackend() {
    Path escape = new Path(URI.create("dtap://a/%2E%2E/" + rootB.getName() + "/x"));
    assertThatThrownBy(() -> write(fs, escape, "x"))
        .isInstanceOf(AccessControlException.class)
        .hasMessageContaining("leaves the root of tap 'a'");
    assertThat(new File(rootB, "x")).doesNotExist();
  }

  @Test
  void theTapRootAlwaysExists() throws IOException {
    File fresh = new File(rootA, "not-yet");
    Configuration c = LocalTaps.addTap(new Configuration(conf), "fresh", fresh);
    try (FileSystem f = LocalTaps.open(c, "fresh")) {
      Path root = LocalTaps.path("fresh", "/");
      FileStatus st = f.getFileStatus(root);
      assertThat(st.isDirectory()).isTrue();
      assertThat(st.getPath()).isEqualTo(root);
      assertThat(f.listStatus(root)).isEmpty();
      assertThat(f.exists(root)).isTrue();
      write(f, LocalTaps.path("fresh", "/x"), "1");
      assertThat(f.delete(root, true)).isTrue();
      assertThat(f.getFileStatus(root).isDirectory()).isTrue();
      assertThat(f.listStatus(root)).isEmpty();
    }
  }

  @Test
  void openFileHandsTheBackendItsOwnStatusAndOptions() throws Exception {
    AtomicReference<FileSystem> backend = new AtomicReference<>();
    DataTapFileSystem spied =
        new DataTapFileSystem(
            (u, c) -> {
              backend.set(Mockito.spy(FileSystem.newInstance(u, c)));
              return backend.get();
            });
    spied.initialize(URI.create("dtap://a/"), conf);
    try {
      Path p = LocalTaps.path("a", "/data.bin");
      write(spied, p, "0123456789");
      FileStatus st = spied.getFileStatus(p);
      AtomicReference<FutureDataInputStreamBuilder> builder = new AtomicReference<>();
      Mockito.doAnswer(
              inv -> {
                FutureDataInputStreamBuilder real =
                    (FutureDataInputStreamBuilder) inv.callRealMethod();
                builder.set(Mockito.spy(real));
                return builder.get();
              })
          .when(backend.get())
          .openFile(Mockito.any(Path.class));
      Mockito.clearInvocations(backend.get());
      try (FSDataInputStream in =
          FutureIO.awaitFuture(
              spied
                  .openFile(p)
                  .withFileStatus(st)
                  .opt("fs.option.openfile.read.policy", "random")
                  .build())) {
        byte[] buf = new byte[4];
        in.readFully(6, buf);
        assertThat(new String(buf, StandardCharsets.UTF_8)).isEqualTo("6789");
      }
      FileStatus original = ((BackendStatusHolder) st).backendStatus();
      Mockito.verify(builder.get()).withFileStatus(Mockito.same(original));
      Mockito.verify(builder.get()).opt("fs.option.openfile.read.policy", "random");
    } finally {
      spied.close();
    }
    Mockito.verify(backend.get()).close();
  }

  @Test
  void createFileBuilderPassesFlags() throws IOException {
    Path p = LocalTaps.path("a", "/built");
    try (FSDataOutputStream out = fs.createFile(p).overwrite(false).recursive().build()) {
      out.write(1);
    }
    assertThatThrownBy(() -> fs.createFile(p).overwrite(false).build())
        .isInstanceOf(IOException.class)
        .hasMessageNotContaining(rootA.getPath());
    try (FSDataOutputStream out = fs.createFile(p).overwrite(true).build()) {
      out.write(new byte[] {1, 2});
    }
    assertThat(fs.getFileStatus(p).getLen()).isEqualTo(2);
    try (FSDataOutputStream out =
        fs.create(
            LocalTaps.path("a", "/flags"),
            null,
            EnumSet.of(CreateFlag.CREATE),
            4096,
            (short) 1,
            1 << 20,
            null,
            Options.ChecksumOpt.createDisabled())) {
      out.write(3);
    }
    assertThat(new File(rootA, "flags")).exists();
  }

  @Test
  void statusesKeepTheBackendIdentityReachable() throws IOException {
    Path p = LocalTaps.path("a", "/f");
    write(fs, p, "abc");
    FileStatus st = fs.getFileStatus(p);
    assertThat(st).isInstanceOf(EtagSource.class);
    assertThat(((BackendStatusHolder) st).backendStatus().getPath().toUri().getPath())
        .isEqualTo(new File(rootA, "f").getPath());
    // a plain copy (what serialisation produces) is equal by path
    FileStatus copy = new FileStatus(st);
    assertThat(copy).isEqualTo(st);
    assertThat(copy.getPermission()).isEqualTo(st.getPermission());
  }

  @Test
  void blockLocationsPassThroughAndAreCounted() throws IOException {
    Path p = LocalTaps.path("a", "/f");
    write(fs, p, "abcdef");
    BlockLocation[] locations = fs.getFileBlockLocations(fs.getFileStatus(p), 0, 6);
    assertThat(locations).hasSize(1);
    assertThat(locations[0].getLength()).isEqualTo(6);
    IOStatistics stats = ((DataTapFileSystem) fs).getIOStatistics();
    assertThat(stats.counters()).containsEntry(DataTapStatistics.BACKEND_LOCATION_CALLS, 1L);
    assertThat(stats.counters().get("dtap_op_get_file_status")).isGreaterThanOrEqualTo(1L);
    assertThat(fs.getFileBlockLocations(fs.getFileStatus(p), 10, 1)).isEmpty();
    assertThatThrownBy(() -> fs.getFileBlockLocations(fs.getFileStatus(p), -1, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void bytesAreCountedUnderTheDtapScheme() throws IOException {
    FileSystem.Statistics stats = FileSystem.getStatistics("dtap", DataTapFileSystem.class);
    long before = stats.getBytesRead();
    long writtenBefore = stats.getBytesWritten();
    Path p = LocalTaps.path("a", "/counted");
    write(fs, p, "0123456789");
    assertThat(read(fs, p)).hasSize(10);
    assertThat(stats.getBytesRead() - before).isEqualTo(10);
    assertThat(stats.getBytesWritten() - writtenBefore).isEqualTo(10);
  }

  @Test
  void fileContextWorksThroughDataTapFs() throws Exception {
    Configuration c = new Configuration(conf);
    c.set("fs.AbstractFileSystem.dtap.impl", DataTapFs.class.getName());
    FileContext fc = FileContext.getFileContext(URI.create("dtap://a/"), c);
    Path dir = LocalTaps.path("a", "/fc");
    fc.mkdir(dir, null, true);
    Path file = new Path(dir, "f");
    try (FSDataOutputStream out =
        fc.create(file, EnumSet.of(CreateFlag.CREATE), Options.CreateOpts.createParent())) {
      out.write("fc".getBytes(StandardCharsets.UTF_8));
    }
    Path moved = new Path(dir, "g");
    fc.rename(file, moved, Options.Rename.OVERWRITE);
    assertThat(fc.getFileStatus(moved).getLen()).isEqualTo(2);
    assertThat(fc.util().listStatus(dir)).extracting(FileStatus::getPath).containsExactly(moved);
    try (InputStream in = fc.open(moved)) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("fc");
    }
    assertThat(fc.delete(dir, true)).isTrue();
    assertThat(new File(rootA, "fc")).doesNotExist();
  }

  @Test
  void eachTapHasAPrivateBackendConfiguration() throws IOException {
    Configuration c = new Configuration(conf);
    c.set("fs.dtap.tap.a.conf.dtap.test.only-a", "A");
    c.set("fs.dtap.tap.b.conf.dtap.test.only-b", "B");
    try (DataTapFileSystem a = (DataTapFileSystem) LocalTaps.open(c, "a");
        DataTapFileSystem b = (DataTapFileSystem) LocalTaps.open(c, "b")) {
      Configuration ca = a.tap().backendConfiguration();
      Configuration cb = b.tap().backendConfiguration();
      assertThat(ca.get("dtap.test.only-a")).isEqualTo("A");
      assertThat(ca.get("dtap.test.only-b")).isNull();
      assertThat(cb.get("dtap.test.only-b")).isEqualTo("B");
      assertThat(cb.get("dtap.test.only-a")).isNull();
      assertThat(c.get("dtap.test.only-a")).isNull();
      assertThat(a.tap().backend()).isNotSameAs(b.tap().backend());
      assertThat(a.tap().backend()).isNotSameAs(FileSystem.getLocal(c));
      assertThat(a.getChildFileSystems()).containsExactly(a.tap().backend());
      assertThat(a.getCanonicalServiceName()).isNull();
      Credentials credentials = new Credentials();
      assertThat(a.addDelegationTokens("yarn", credentials)).isEmpty();
    }
  }

  @Test
  void toStringNamesTheTapButNotTheBackendLocation() {
    assertThat(fs.toString())
        .contains("tap=a")
        .contains("backend=file")
        .doesNotContain(rootA.getPath());
  }
}
