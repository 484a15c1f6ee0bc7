package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A symbolic link under a local tap root cannot lead outside it, existing or dangling. */
class TestSymlinkContainment {
  private File root;
  private File outside;
  private Configuration conf;
  private FileSystem fs;

  @BeforeEach
  void setUp() throws IOException {
    root = LocalTaps.newDir("linkroot");
    outside = LocalTaps.newDir("outside");
    Files.write(
        new File(outside, "secret.txt").toPath(), "outside".getBytes(StandardCharsets.UTF_8));
    new File(root, "inside").mkdirs();
    Files.write(
        new File(root, "inside/ok.txt").toPath(), "inside".getBytes(StandardCharsets.UTF_8));
    Files.createSymbolicLink(new File(root, "out-dir").toPath(), outside.toPath());
    Files.createSymbolicLink(
        new File(root, "out-file").toPath(), new File(outside, "secret.txt").toPath());
    Files.createSymbolicLink(
        new File(root, "dangling").toPath(), new File(outside, "new-file").toPath());
    Files.createSymbolicLink(
        new File(root, "dangling-dir").toPath(), new File(outside, "new-dir").toPath());
    Files.createSymbolicLink(new File(root, "in-link").toPath(), new File(root, "inside").toPath());
    conf = LocalTaps.addTap(LocalTaps.newConf(), "t", root);
    fs = LocalTaps.open(conf, "t");
  }

  @AfterEach
  void tearDown() throws IOException {
    fs.close();
  }

  @Test
  void readsThroughOutsideLinksAreRefused() {
    for (String p : new String[] {"/out-file", "/out-dir/secret.txt"}) {
      assertThatThrownBy(() -> fs.open(LocalTaps.path("t", p)), p)
          .isInstanceOf(AccessControlException.class)
          .hasMessageContaining("outside the root of tap 't'")
          .hasMessageNotContaining(outside.getPath());
      assertThatThrownBy(() -> fs.getFileStatus(LocalTaps.path("t", p)), p)
          .isInstanceOf(AccessControlException.class);
    }
    assertThatThrownBy(() -> fs.listStatus(LocalTaps.path("t", "/out-dir")))
        .isInstanceOf(AccessControlException.class);
  }

  @Test
  void writesThroughDanglingLinksAreRefused() {
    assertThatThrownBy(() -> fs.create(LocalTaps.path("t", "/dangling")).close())
        .isInstanceOf(AccessControlException.class);
    assertThatThrownBy(() -> fs.mkdirs(LocalTaps.path("t", "/dangling-dir/sub")))
        .isInstanceOf(AccessControlException.class);
    assertThatThrownBy(() -> fs.create(LocalTaps.path("t", "/out-dir/new.txt")).close())
        .isInstanceOf(AccessControlException.class);
    assertThat(new File(outside, "new-file")).doesNotExist();
    assertThat(new File(outside, "new-dir")).doesNotExist();
    assertThat(new File(outside, "new.txt")).doesNotExist();
  }

  @Test
  void linksInsideTheRootWork() throws IOException {
    try (InputStream in = fs.open(LocalTaps.path("t", "/in-link/ok.txt"))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("inside");
    }
    try (FSDataOutputStream out = fs.create(LocalTaps.path("t", "/in-link/new/deep.txt"))) {
      out.write(1);
    }
    assertThat(new File(root, "inside/new/deep.txt")).exists();
    // a path under a file (ENOTDIR) is a plain not-found, not a containment failure
    assertThat(fs.exists(LocalTaps.path("t", "/inside/ok.txt/x"))).isFalse();
  }

  @Test
  void checkCanBeSwitchedOffForTrustedTrees() throws IOException {
    Configuration trusted = new Configuration(conf);
    trusted.set("fs.dtap.tap.t.check-symlinks", "false");
    try (FileSystem f = LocalTaps.open(trusted, "t");
        InputStream in = f.open(LocalTaps.path("t", "/out-file"))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("outside");
    }
  }
}
