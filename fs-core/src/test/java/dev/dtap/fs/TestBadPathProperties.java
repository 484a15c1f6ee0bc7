package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.LocalTaps;
import dev.dtap.fs.testing.PropertyRuns;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;

/**
 * Generated bad input against local taps: path spellings built from escape fragments ({@code ..},
 * encoded dots and slashes, backslashes, look-alike Unicode dots, NULs, over-long names) never
 * read, list, create, delete or rename anything outside the tap's root, and a read-only tap over
 * the same root refuses every mutating call with {@link AccessControlException}; any tap name
 * either names a configured tap or fails with an IOException. Nothing but IOExceptions (and the
 * IllegalArgumentException Hadoop's own {@link Path} throws for what it cannot parse) comes out,
 * and no message shows the backend directory.
 */
@AddLifecycleHook(PropertyRuns.class)
class TestBadPathProperties {
  private static final String SECRET = "outside the tap";
  private static File outer;
  private static File root;
  private static File secret;
  private static FileSystem rw;
  private static FileSystem ro;
  private static Configuration conf;

  @BeforeContainer
  static void setUp() throws IOException {
    outer = LocalTaps.newDir("bad-paths");
    root = new File(outer, "root");
    assertThat(new File(root, "inside").mkdirs()).isTrue();
    Files.write(new File(root, "inside/file").toPath(), "inside".getBytes(StandardCharsets.UTF_8));
    secret = new File(outer, "secret");
    Files.write(secret.toPath(), SECRET.getBytes(StandardCharsets.UTF_8));
    conf = LocalTaps.addTap(LocalTaps.newConf(), "rw", root);
    LocalTaps.addTap(conf, "ro", root);
    conf.setBoolean("fs.dtap.tap.ro.readonly", true);
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    rw = FileSystem.newInstance(URI.create("dtap://rw/"), conf);
    ro = FileSystem.newInstance(URI.create("dtap://ro/"), conf);
  }

  @AfterContainer
  static void tearDown() throws IOException {
    rw.close();
    ro.close();
  }

  @Provide
  Arbitrary<String> spellings() {
    Arbitrary<String> fragment =
        Arbitraries.oneOf(
            Arbitraries.of(
                "..",
                ".",
                "",
                "...",
                "%2e%2e",
                "%2E%2E",
                ".%2e",
                "%2f",
                "%5c",
                "..%2f",
                "..\\",
                "\\..",
                "\u2024\u2024",
                "\uff0e\uff0e",
                "..;",
                "~",
                "secret",
                "root",
                "inside",
                "file",
                "a b",
                "\u0000",
                "%00",
                "#x",
                "?q=1",
                ":",
                "c:",
                "//",
                "\u00e9\u0301"),
            Arbitraries.strings().withCharRange('!', '~').ofMinLength(1).ofMaxLength(12),
            Arbitraries.strings().withChars('a').ofLength(300));
    return fragment.list().ofMinSize(1).ofMaxSize(8).map(l -> String.join("/", l));
  }

  private static Path path(FileSystem fs, String spelling) {
    try {
      return new Path(fs.getUri().toString() + "/" + spelling);
    } catch (IllegalArgumentException e) {
      return null; // Hadoop's Path refuses it before dtap sees it
    }
  }

  @Property
  void noSpellingReachesOutsideTheRoot(@ForAll("spellings") String spelling) throws Exception {
    Path p = path(rw, spelling);
    if (p == null) {
      return;
    }
    attempt(
        () -> {
          try (InputStream in = rw.open(p)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                .as(spelling)
                .isNotEqualTo(SECRET);
          }
        });
    attempt(
        () -> {
          for (FileStatus s : rw.listStatus(p)) {
            assertThat(s.getPath().toString()).as(spelling).startsWith("dtap://rw/");
          }
        });
    attempt(
        () -> {
          try (FSDataOutputStream out = rw.create(p, false)) {
            out.write(1);
          }
        });
    attempt(() -> rw.mkdirs(p));
    attempt(
        () -> {
          Path src = new Path("dtap://rw/scratch");
          rw.create(src, true).close();
          rw.rename(src, p);
        });
    attempt(() -> rw.delete(p, false));
    assertOutsideUntouched(spelling);
  }

  @Example
  void aNulInALocalPathIsAPathErrorNamingTheDtapPath() {
    Path p = new Path("dtap://rw/a\u0000b");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> rw.open(p))
        .isInstanceOf(org.apache.hadoop.fs.PathIOException.class)
        .hasMessageContaining("dtap://rw/a")
        .hasMessageNotContaining(outer.getAbsolutePath());
  }

  @Property
  void aReadOnlyTapRefusesEveryMutation(@ForAll("spellings") String spelling) throws Exception {
    Path p = path(ro, spelling);
    if (p == null) {
      return;
    }
    refused(() -> ro.create(p, true).close());
    refused(() -> ro.mkdirs(p));
    refused(() -> ro.delete(p, true));
    refused(() -> ro.rename(new Path("dtap://ro/inside/file"), p));
    refused(() -> ro.rename(p, new Path("dtap://ro/inside/moved")));
    refused(
        () -> ro.setPermission(p, new org.apache.hadoop.fs.permission.FsPermission((short) 0777)));
    refused(() -> ro.setTimes(p, 1, 1));
    refused(() -> ro.append(p).close());
    assertThat(new File(root, "inside/file")).hasContent("inside");
    assertOutsideUntouched(spelling);
  }

  @Property
  void anyTapNameIsAConfiguredTapOrAnIOException(@ForAll("tapNames") String tap) throws Exception {
    URI uri;
    try {
      uri = new URI("dtap", tap, "/x", null, null);
    } catch (java.net.URISyntaxException e) {
      return; // not a URI at all: nothing reaches dtap
    }
    try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
      assertThat(fs.getUri().getAuthority()).as(tap).isIn("rw", "ro");
    } catch (IOException expected) {
      assertThat(expected.getMessage()).as("the error for tap name " + tap).isNotBlank();
      assertNoSecret(expected);
    }
  }

  @Provide
  Arbitrary<String> tapNames() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            "",
            "rw",
            "ro",
            "RW",
            "rw ",
            "-rw",
            "r_w",
            "rw.x",
            "a".repeat(64),
            "a".repeat(63),
            "..",
            "user@rw",
            "rw:80"),
        Arbitraries.strings().ofMinLength(0).ofMaxLength(80));
  }

  private interface Mutation {
    void run() throws IOException;
  }

  /** Runs a call that may fail on a bad spelling, and checks how it failed. */
  private static void attempt(Mutation m) {
    try {
      m.run();
    } catch (IOException expected) {
      assertNoSecret(expected);
    } catch (IllegalArgumentException e) {
      assertHadoopRefusedTheName(e);
    }
  }

  private static void refused(Mutation m) {
    try {
      m.run();
    } catch (AccessControlException expected) {
      return;
    } catch (IOException e) {
      throw new AssertionError(
          "a read-only tap answered a mutation with " + e + " instead of AccessControlException",
          e);
    }
    throw new AssertionError("a read-only tap let a mutation through");
  }

  /**
   * Hadoop's local filesystem cannot name the checksum file of a name with a colon ({@code
   * .a:b.crc} is not a valid Path) and says so with an IllegalArgumentException from {@link Path}:
   * its own behaviour, the same through file://, and nothing is created.
   */
  private static void assertHadoopRefusedTheName(IllegalArgumentException e) {
    assertThat(e.getStackTrace()[0].getClassName())
        .as("thrown by Hadoop's Path: " + e)
        .isEqualTo(Path.class.getName());
    assertThat(String.valueOf(e.getMessage())).doesNotContain(outer.getAbsolutePath());
  }

  private static void assertNoSecret(IOException e) {
    assertThat(String.valueOf(e.getMessage())).doesNotContain(outer.getAbsolutePath());
  }

  private static void assertOutsideUntouched(String spelling) throws IOException {
    assertThat(new String(Files.readAllBytes(secret.toPath()), StandardCharsets.UTF_8))
        .as(spelling)
        .isEqualTo(SECRET);
    assertThat(new TreeSet<>(Arrays.asList(outer.list())))
        .as("beside the root after " + spelling)
        .containsExactly("root", "secret");
  }
}
