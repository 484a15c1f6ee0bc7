package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.dtap.fs.testing.LocalTaps;
import dev.dtap.fs.testing.UnreachableFileSystem;
import java.net.ConnectException;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A backend failure whose message names no path (Hadoop RPC's "Connection refused") reaches the
 * caller naming the dtap path it was on, with its class kept and the server hidden: a task log of
 * such failures is otherwise no help in finding which file or tap failed.
 */
class TestErrorsNameThePath {
  private static final Path FILE = new Path("dtap://far/t/part-0");

  private FileSystem fs;

  @BeforeEach
  void setUp() throws Exception {
    Configuration conf = LocalTaps.newConf();
    conf.setClass("fs.hdfs.impl", UnreachableFileSystem.class, FileSystem.class);
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    conf.set("fs.dtap.tap.far.uri", "hdfs://nn.internal:8020/warehouse");
    fs = LocalTaps.open(conf, "far");
  }

  @AfterEach
  void tearDown() throws Exception {
    fs.close();
  }

  interface Op {
    void run(FileSystem fs) throws Exception;
  }

  static Stream<Arguments> operations() {
    return Stream.of(
        Arguments.of("getFileStatus", (Op) fs -> fs.getFileStatus(FILE)),
        Arguments.of("listStatus", (Op) fs -> fs.listStatus(FILE)),
        Arguments.of("listStatusIterator", (Op) fs -> fs.listStatusIterator(FILE).hasNext()),
        Arguments.of("listFiles", (Op) fs -> fs.listFiles(FILE, true).hasNext()),
        Arguments.of("listLocatedStatus", (Op) fs -> fs.listLocatedStatus(FILE).hasNext()),
        Arguments.of("getContentSummary", (Op) fs -> fs.getContentSummary(FILE)),
        Arguments.of("open", (Op) fs -> fs.open(FILE).close()),
        Arguments.of("openFile", (Op) fs -> fs.openFile(FILE).build().get().close()),
        Arguments.of("create", (Op) fs -> fs.create(FILE, true).close()),
        Arguments.of("delete", (Op) fs -> fs.delete(FILE, false)),
        Arguments.of("rename", (Op) fs -> fs.rename(FILE, new Path("dtap://far/t/part-1"))),
        Arguments.of("mkdirs", (Op) fs -> fs.mkdirs(FILE)),
        Arguments.of(
            "setPermission", (Op) fs -> fs.setPermission(FILE, FsPermission.getFileDefault())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("operations")
  void theFailureNamesTheDtapPathKeepsItsClassAndHidesTheServer(String name, Op op) {
    Throwable error = catchThrowable(() -> op.run(fs));
    Throwable thrown =
        error instanceof java.util.concurrent.ExecutionException ? error.getCause() : error;
    assertThat(thrown).as(name).isInstanceOf(ConnectException.class);
    assertThat(thrown.getMessage())
        .as(name)
        .startsWith(FILE + ": ")
        .contains("[server of tap 'far']")
        .doesNotContain("nn.internal")
        .doesNotContain("/warehouse");
    assertThat(thrown.getCause())
        .as("the backend's failure, rewritten, stays as the cause")
        .isInstanceOf(ConnectException.class);
    assertThat(thrown.getCause().getMessage()).doesNotContain("nn.internal");
  }

  @ParameterizedTest
  @ValueSource(strings = {"dtap://far/t/part-0", "/t/part-0", "part-0"})
  void aPathIsNamedInItsQualifiedForm(String asked) throws Exception {
    fs.setWorkingDirectory(new Path("dtap://far/t"));
    Throwable error = catchThrowable(() -> fs.getFileStatus(new Path(asked)));
    assertThat(error).isInstanceOf(ConnectException.class);
    assertThat(error.getMessage()).startsWith("dtap://far/t/part-0: ");
  }

  @Test
  void aDeleteOfTheRootNamesTheRoot() {
    Throwable error = catchThrowable(() -> fs.delete(new Path("dtap://far/"), true));
    assertThat(error).isInstanceOf(ConnectException.class);
    assertThat(error.getMessage()).startsWith("dtap://far/: ").doesNotContain("nn.internal");
  }

  @Test
  void aClassThatCannotBeRebuiltKeepsItsClassUnnamed() {
    ExceptionTranslator errors =
        new ExceptionTranslator("far", java.net.URI.create("hdfs://nn.internal:8020/warehouse"));
    java.nio.channels.ClosedChannelException closed =
        new java.nio.channels.ClosedChannelException();
    assertThat(errors.translate(closed, "dtap://far/t/part-0"))
        .as("callers act on the class: it is worth more than the path")
        .isSameAs(closed);
  }

  @Test
  void aMessageNamesThePathOnlyAsAWholePath() {
    ExceptionTranslator errors =
        new ExceptionTranslator("far", java.net.URI.create("hdfs://nn.internal:8020/warehouse"));
    java.io.IOException longer = new java.io.IOException("cannot read dtap://far/t/part-01");
    assertThat(errors.translate(longer, "dtap://far/t/part-0"))
        .hasMessage("dtap://far/t/part-0: cannot read dtap://far/t/part-01");
    java.io.IOException ended = new java.io.IOException("cannot read dtap://far/t/part-0.");
    assertThat(errors.translate(ended, "dtap://far/t/part-0")).isSameAs(ended);
    java.io.IOException root = new java.io.IOException("cannot list /warehouse: refused");
    assertThat(errors.translate(root, "dtap://far/"))
        .as("the root, which messages write without its slash")
        .hasMessage("cannot list dtap://far: refused");
  }
}
