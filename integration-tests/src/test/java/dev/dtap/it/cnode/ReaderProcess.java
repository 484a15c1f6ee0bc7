package dev.dtap.it.cnode;

import dev.dtap.fs.testing.Await;
import dev.dtap.it.fixtures.RepoRoot;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;

/** A {@link CnodeReader} task JVM: started, watched through its output, and its result read. */
final class ReaderProcess {
  private final Process process;
  private final File output;

  private ReaderProcess(Process process, File output) {
    this.process = process;
    this.output = output;
  }

  static ReaderProcess start(
      String name, Configuration conf, String path, long crc, int passes, File stop)
      throws IOException {
    String id = name + "-" + Long.toHexString(System.nanoTime());
    File xml = new File(RepoRoot.data(), "reader-" + id + ".xml");
    Files.createDirectories(xml.getParentFile().toPath());
    try (OutputStream out = new FileOutputStream(xml)) {
      conf.writeXml(out);
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx384m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(CnodeReader.class.getName());
    cmd.add(xml.getAbsolutePath());
    cmd.add(path);
    cmd.add(Long.toString(crc));
    cmd.add(Integer.toString(passes));
    if (stop != null) {
      cmd.add(stop.getAbsolutePath());
    }
    File out = new File(RepoRoot.logs(), "reader-" + id + ".out");
    Files.createDirectories(out.getParentFile().toPath());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out).start();
    return new ReaderProcess(p, out);
  }

  /** Waits until the reader printed {@code PASS n}. */
  void awaitPass(int n) throws Exception {
    Await.until(
        "reader pass " + n + " (see " + output + ")",
        Duration.ofMinutes(5),
        () -> {
          if (!process.isAlive() && !text().contains("PASS " + n + " ")) {
            throw new AssertionError("the reader ended early; see " + output);
          }
          return text().contains("PASS " + n + " ");
        });
  }

  private String text() throws IOException {
    return new String(Files.readAllBytes(output.toPath()), StandardCharsets.UTF_8);
  }

  /**
   * Waits for the reader to end and reads its result.
   *
   * @return passes, mismatches, backend, fallbacks, hits
   */
  Map<String, Long> result() throws Exception {
    boolean done = process.waitFor(10, TimeUnit.MINUTES); // a bound for a hung reader only
    if (!done) {
      process.destroyForcibly();
      throw new AssertionError("the reader hung; see " + output);
    }
    if (process.exitValue() != 0) {
      throw new AssertionError("the reader failed; see " + output);
    }
    for (String line : text().split("\n")) {
      if (line.startsWith("RESULT ")) {
        Map<String, Long> m = new HashMap<>();
        for (String kv : line.substring(7).trim().split(" ")) {
          m.put(
              kv.substring(0, kv.indexOf('=')), Long.parseLong(kv.substring(kv.indexOf('=') + 1)));
        }
        return m;
      }
    }
    throw new AssertionError("no RESULT in " + output);
  }

  File output() {
    return output;
  }
}
