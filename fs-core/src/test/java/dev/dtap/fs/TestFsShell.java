package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.LocalTaps;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code hadoop fs} on dtap paths: -mkdir, -put, -ls, -cat, -rm, through Hadoop's own FsShell. */
class TestFsShell {
  private File root;
  private File local;
  private Configuration conf;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream savedOut;
  private PrintStream savedErr;

  @BeforeEach
  void setUp() throws Exception {
    root = LocalTaps.newDir("shell");
    local = LocalTaps.newDir("shell-local");
    Files.write(
        new File(local, "hello.txt").toPath(), "hello dtap\n".getBytes(StandardCharsets.UTF_8));
    conf = LocalTaps.addTap(new Configuration(), "shell", root);
    savedOut = System.out;
    savedErr = System.err;
    System.setOut(new PrintStream(out, true, "UTF-8"));
    System.setErr(new PrintStream(err, true, "UTF-8"));
  }

  @AfterEach
  void tearDown() throws Exception {
    System.setOut(savedOut);
    System.setErr(savedErr);
    FileSystem.closeAll();
  }

  private int run(String... args) throws Exception {
    out.reset();
    err.reset();
    return ToolRunner.run(new FsShell(conf), args);
  }

  private String stdout() {
    return new String(out.toByteArray(), StandardCharsets.UTF_8);
  }

  @Test
  void putListCatRemove() throws Exception {
    assertThat(run("-mkdir", "-p", "dtap://shell/in")).isZero();
    assertThat(run("-put", new File(local, "hello.txt").getPath(), "dtap://shell/in/")).isZero();
    assertThat(new File(root, "in/hello.txt")).hasContent("hello dtap");

    assertThat(run("-ls", "dtap://shell/in")).isZero();
    assertThat(stdout()).contains("dtap://shell/in/hello.txt").doesNotContain(root.getPath());

    assertThat(run("-cat", "dtap://shell/in/hello.txt")).isZero();
    assertThat(stdout()).isEqualTo("hello dtap\n");

    assertThat(run("-rm", "-skipTrash", "dtap://shell/in/hello.txt")).isZero();
    assertThat(new File(root, "in/hello.txt")).doesNotExist();

    assertThat(run("-cat", "dtap://shell/in/hello.txt")).isNotZero();
    String error = new String(err.toByteArray(), StandardCharsets.UTF_8);
    assertThat(error).contains("dtap://shell/in/hello.txt").doesNotContain(root.getPath());
  }
}
