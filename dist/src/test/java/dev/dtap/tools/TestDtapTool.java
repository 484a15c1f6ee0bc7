package dev.dtap.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.Canary;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class TestDtapTool {
  private final ToolHarness tool = new ToolHarness();

  private int run(Configuration conf, String... args) throws Exception {
    return tool.run(conf, args);
  }

  private String out() {
    return tool.out();
  }

  private String err() {
    return tool.err();
  }

  @Test
  void listsTapsWithoutSecrets() throws Exception {
    File root = LocalTaps.newDir("tool");
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "lake", root);
    conf.set("fs.dtap.tap.lake.readonly", "true");
    conf.set("fs.dtap.tap.lake.conf.fs.s3a.secret.key", Canary.secret("tool"));
    assertThat(run(conf, "taps")).isZero();
    assertThat(out()).contains("lake").contains("ro").contains("fs.s3a.secret.key");
    assertThat(out() + err()).doesNotContain(Canary.MARKER);
  }

  @Test
  void anInvalidTapIsListedWithItsErrorBesideTheGoodOnes() throws Exception {
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "lake", LocalTaps.newDir("tool"));
    conf.set("fs.dtap.tap.typo.readOnly", "true");
    assertThat(run(conf, "taps")).as("a problem found").isEqualTo(1);
    assertThat(out())
        .contains("lake")
        .contains("typo")
        .contains("INVALID")
        .contains("fs.dtap.tap.typo.readOnly");
    assertThat(run(conf, "check", "lake")).as("the good tap still works").isZero();
  }

  @Test
  void committerRecoveryNeedsATapWithAMultipartStore() throws Exception {
    File root = LocalTaps.newDir("tool");
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "lake", root);
    assertThat(run(conf, "committer", "recover", "dtap://lake/out")).isEqualTo(1);
    assertThat(err()).contains("tap 'lake' is file://").contains("fs.dtap.committer.name=file");
    assertThat(run(conf, "committer", "recover", "file:///tmp/out"))
        .as("a usage error")
        .isEqualTo(2);
    assertThat(err()).contains("expected a dtap://<tap>/<path> path, got 'file:///tmp/out'");
    assertThat(run(conf, "committer", "recover")).isEqualTo(2);
    assertThat(err()).contains("committer recover [--dry-run]");
  }

  @Test
  void checksATap() throws Exception {
    File root = LocalTaps.newDir("tool");
    Files.write(new File(root, "a.txt").toPath(), "abc".getBytes(StandardCharsets.UTF_8));
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "lake", root);
    assertThat(run(conf, "check", "lake")).isZero();
    assertThat(out()).contains("is a directory: true").contains("dtap://lake/a.txt").contains("3");
    assertThat(run(conf, "check", "nope")).isEqualTo(1);
    assertThat(err()).contains("Unknown tap 'nope'").contains("[lake]");
  }

  @Test
  void usageAndVersion() throws Exception {
    Configuration conf = LocalTaps.newConf();
    assertThat(run(conf)).isEqualTo(2);
    assertThat(err()).contains("Usage: dtap");
    assertThat(run(conf, "bogus")).isEqualTo(2);
    assertThat(err()).contains("unknown command 'bogus'");
    assertThat(run(conf, "version")).isZero();
    assertThat(out()).startsWith("dtap ");
    assertThat(run(conf, "taps")).isEqualTo(1);
    assertThat(out()).contains("No taps configured");
  }
}
