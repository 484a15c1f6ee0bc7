package dev.dtap.it.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.cache.CacheKeys;
import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.fs.config.ConfigKey;
import dev.dtap.fs.config.DataTapKeys;
import dev.dtap.fs.testing.PropertyRuns;
import dev.dtap.it.fixtures.ErrorText;
import dev.dtap.it.fixtures.RepoRoot;
import dev.dtap.locality.LocalityKeys;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/**
 * Generated bad values for every declared key of every module (fs-core, cache, locality,
 * committers): a local tap with the cache on is opened, a file read and its blocks located, and a
 * committer created for it. Whatever the value, the result is success or an IOException whose
 * message names the key: never a NumberFormatException, NullPointerException or another unchecked
 * exception from deep inside, never a message that leaves the operator guessing which key is wrong.
 */
@AddLifecycleHook(PropertyRuns.class)
class TestConfigValueProperties {
  private static final String TAP = "cv";
  private static File root;
  private static List<ConfigKey<?>> keys;

  @BeforeContainer
  static void setUp() throws IOException {
    // a unit test: on a fresh clone no fixture has made the data directory yet
    root =
        Files.createTempDirectory(
                Files.createDirectories(RepoRoot.data().toPath()), "config-values-")
            .toFile();
    Files.write(new File(root, "f").toPath(), "some bytes\n".getBytes(StandardCharsets.UTF_8));
    keys = new ArrayList<>();
    keys.addAll(DataTapKeys.all());
    keys.addAll(CacheKeys.all());
    keys.addAll(LocalityKeys.all());
    keys.addAll(CommitterKeys.all());
    // Hadoop reads these itself (FileSystem.getFileSystemClass), with its own errors
    keys.removeIf(
        k -> k.name().equals("fs.dtap.impl") || k.name().startsWith("fs.AbstractFileSystem."));
  }

  @Provide
  Arbitrary<ConfigKey<?>> keys() {
    return Arbitraries.of(keys);
  }

  @Provide
  Arbitrary<String> values() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            "-1",
            "0",
            "-5m",
            "abc",
            "",
            " ",
            "1x",
            "99999999999999999999999",
            "1.5",
            "NaN",
            "true",
            "1g",
            "64k",
            "-64k",
            "0k",
            "10s",
            "-1s",
            "1h",
            "none",
            "magic",
            "file",
            "yarn",
            "static",
            "hdfs://",
            "file:///",
            "dtap://x/",
            "s3a://",
            "\u00e9",
            // no local filesystem can name it: every key holding a path must refuse it
            "/tmp/a\u0000b",
            "2147483648",
            "9223372036854775807"),
        Arbitraries.strings().ofMinLength(0).ofMaxLength(20));
  }

  @Property
  void aBadValueIsAcceptedOrRefusedNamingItsKey(
      @ForAll("keys") ConfigKey<?> key, @ForAll("values") String value) throws Exception {
    Statistics.collect(acceptedOrRefused(key, value));
  }

  /**
   * A value no local filesystem can name, for every key: the keys that hold a path are where such a
   * value escaped as an {@code InvalidPathException} before (a random string reaches each key with
   * it too rarely for one run to find it).
   */
  @Example
  void aPathNoFilesystemCanNameIsRefusedByEveryKeyNamingIt() throws Exception {
    for (ConfigKey<?> key : keys) {
      acceptedOrRefused(key, "/tmp/a\u0000b");
    }
  }

  /**
   * Opens a tap, reads, locates and creates a committer with one key set to a value.
   *
   * @return how it ended: accepted, or refused naming the key
   * @throws AssertionError when it ended any other way
   */
  private static String acceptedOrRefused(ConfigKey<?> key, String value) throws Exception {
    String name = key.isPerTap() ? key.forTap(TAP) : key.name();
    Configuration conf = new Configuration(false);
    conf.set("fs.dtap.impl", "dev.dtap.fs.DataTapFileSystem");
    conf.set("fs.AbstractFileSystem.dtap.impl", "dev.dtap.fs.DataTapFs");
    conf.set("fs.dtap.tap." + TAP + ".uri", root.toURI().toString());
    conf.set("fs.dtap.tap." + TAP + ".cache", "true");
    conf.set(
        "fs.dtap.cache.dirs",
        new File(root.getParentFile(), root.getName() + "-cache").getAbsolutePath());
    conf.set("fs.dtap.locality.membership", "static");
    conf.set("fs.dtap.locality.hosts", "h1,h2");
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", "dev.dtap.commit.DataTapCommitterFactory");
    conf.set(name, value);
    try (FileSystem fs = FileSystem.newInstance(URI.create("dtap://" + TAP + "/"), conf)) {
      Path f = new Path("dtap://" + TAP + "/f");
      try (FSDataInputStream in = fs.open(f)) {
        in.read(new byte[4]);
      }
      fs.getFileBlockLocations(fs.getFileStatus(f), 0, 1);
      Path out = new Path("dtap://" + TAP + "/out-" + System.nanoTime());
      TaskAttemptContextImpl ctx =
          new TaskAttemptContextImpl(
              conf, new TaskAttemptID(new TaskID(new JobID("2026", 1), TaskType.MAP, 0), 0));
      ctx.getConfiguration().set("mapreduce.output.fileoutputformat.outputdir", out.toString());
      PathOutputCommitter committer = PathOutputCommitterFactory.createCommitter(out, ctx);
      assertThat(committer).isNotNull();
      return "accepted";
    } catch (java.io.FileNotFoundException e) {
      // a valid root elsewhere (file:///) has no file f: the tap works, the file is missing
      assertThat(name).as(name + "=" + value + ": " + e).isEqualTo(DataTapKeys.TAP_URI.forTap(TAP));
      return "accepted; no such file under that root";
    } catch (IOException e) {
      assertThat(ErrorText.of(e))
          .as(name + "=" + value + " was refused; does the error name the key?")
          .contains(name);
      return "refused naming the key";
    } catch (RuntimeException e) {
      throw new AssertionError(name + "=" + value + " escaped as an unchecked exception: " + e, e);
    }
  }
}
