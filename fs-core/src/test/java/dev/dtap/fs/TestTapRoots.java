package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.config.InvalidConfigurationException;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Tap roots as users write them: with spaces and non-ASCII names, written raw (as Hadoop's Path
 * takes them) or percent-encoded; and a tap with a broken definition fails alone, when it is used,
 * while every other tap of the site works.
 */
class TestTapRoots {
  private static void roundTrip(Configuration conf, String tap, File root) throws Exception {
    try (FileSystem fs = FileSystem.newInstance(URI.create("dtap://" + tap + "/"), conf)) {
      Path file = new Path("dtap://" + tap + "/sub dir/ä.txt");
      try (FSDataOutputStream out = fs.create(file)) {
        out.write("hello".getBytes(StandardCharsets.UTF_8));
      }
      assertThat(new File(root, "sub dir/ä.txt"))
          .as("the file, under the tap's root on disk")
          .isFile();
      try (FSDataInputStream in = fs.open(file)) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("hello");
      }
      FileStatus[] listed = fs.listStatus(new Path("dtap://" + tap + "/sub dir"));
      assertThat(listed).hasSize(1);
      assertThat(listed[0].getPath()).isEqualTo(fs.makeQualified(file));
    }
  }

  @Test
  void rootsWithSpacesAndNonAsciiNamesRawOrEncoded() throws Exception {
    File base = LocalTaps.newDir("roots");
    File root = new File(base, "my dir/ünïcödé");
    Files.createDirectories(root.toPath());
    Configuration conf = LocalTaps.newConf();
    conf.set("fs.dtap.tap.raw.uri", "file://" + root.getAbsolutePath());
    conf.set("fs.dtap.tap.encoded.uri", root.toURI().toASCIIString());
    roundTrip(conf, "raw", root);
    roundTrip(conf, "encoded", root);
  }

  @Test
  void aBrokenTapFailsWhenUsedAndNeverBreaksAnother() throws Exception {
    File root = LocalTaps.newDir("good");
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "good", root);
    conf.set("fs.dtap.tap.broken.uri", "not a uri at all");
    conf.set("fs.dtap.tap.broken.readonly", "perhaps");
    roundTrip(conf, "good", root);
    assertThatThrownBy(() -> FileSystem.newInstance(URI.create("dtap://broken/"), conf))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("fs.dtap.tap.broken.");
  }
}
