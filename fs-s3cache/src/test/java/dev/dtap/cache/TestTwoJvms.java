package dev.dtap.cache;

import static dev.dtap.cache.CacheTestSupport.randomFile;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.cache.disk.PageKey;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Two JVMs share one cache directory: pages one writes, the other reads, and reading the same cold
 * file at the same time in three JVMs never shows a partial or corrupt page.
 */
class TestTwoJvms {
  private static final int LENGTH = 40 * CacheTestSupport.PAGE + 7;

  private static Process reader(File root, File cache, String name) throws IOException {
    return reader(root, cache, name, 1);
  }

  /** A JVM reading the file {@code passes} times (a lone scan caches on its second pass). */
  private static Process reader(File root, File cache, String name, int passes) throws IOException {
    return reader(root, cache, name, passes, null);
  }

  /** The same, with a cache quota and the default admission when {@code quota} is not null. */
  private static Process reader(File root, File cache, String name, int passes, String quota)
      throws IOException {
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb =
        new ProcessBuilder(
            java,
            "-cp",
            System.getProperty("java.class.path"),
            "-Dtest.build.data=" + System.getProperty("test.build.data", "target/test-data"),
            CacheReaderMain.class.getName(),
            root.getAbsolutePath(),
            cache.getAbsolutePath(),
            name,
            String.valueOf(passes));
    if (quota != null) {
      pb.command().add(quota);
    }
    pb.redirectErrorStream(false);
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    return pb.start();
  }

  private static Map<String, String> result(Process p) throws Exception {
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("reader JVM output: %s", out).isZero();
    String last = "";
    for (String line : out.split("\n")) {
      if (line.startsWith("sha256=")) {
        last = line.trim(); // the result line; the rest is whatever the JVM logged
      }
    }
    Map<String, String> m = new HashMap<>();
    for (String kv : last.split(" ")) {
      String[] parts = kv.split("=", 2);
      m.put(parts[0], parts[1]);
    }
    return m;
  }

  private static String sha(byte[] data) throws Exception {
    StringBuilder hex = new StringBuilder();
    for (byte b : MessageDigest.getInstance("SHA-256").digest(data)) {
      hex.append(String.format("%02x", b));
    }
    return hex.toString();
  }

  @Test
  void pagesWrittenByOneJvmServeAnother() throws Exception {
    File root = LocalTaps.newDir("twojvm");
    File cache = new File(LocalTaps.newDir("twojvmcache"), "pages");
    byte[] data = randomFile(new File(root, "a.bin"), LENGTH, 5);

    Map<String, String> first = result(reader(root, cache, "a.bin", 2));
    assertThat(first.get("sha256")).isEqualTo(sha(data));
    assertThat(Long.parseLong(first.get("backend"))).isGreaterThanOrEqualTo(LENGTH);

    Map<String, String> second = result(reader(root, cache, "a.bin"));
    assertThat(second.get("sha256")).isEqualTo(sha(data));
    assertThat(Long.parseLong(second.get("backend")))
        .as("the second JVM reads no backend byte")
        .isZero();
    assertThat(Long.parseLong(second.get("disk"))).isEqualTo(LENGTH);
  }

  @Test
  void concurrentJvmsNeverSeePartialPages() throws Exception {
    File root = LocalTaps.newDir("twojvm");
    File cache = new File(LocalTaps.newDir("twojvmcache"), "pages");
    byte[] data = randomFile(new File(root, "b.bin"), LENGTH, 6);
    List<Process> readers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      readers.add(reader(root, cache, "b.bin", 2)); // each writes pages while the others read them
    }
    for (Process p : readers) {
      Map<String, String> r = result(p);
      assertThat(r.get("sha256")).isEqualTo(sha(data));
      assertThat(r.get("corrupt")).isEqualTo("0");
    }
    Map<String, String> after = result(reader(root, cache, "b.bin"));
    assertThat(after.get("sha256")).isEqualTo(sha(data));
    assertThat(after.get("backend")).isEqualTo("0");
  }

  private static Set<String> pageFiles(File cache) throws IOException {
    try (Stream<Path> s = Files.walk(cache.toPath())) {
      return s.filter(p -> PageKey.parse(p.getFileName().toString()) != null)
          .map(p -> p.getFileName().toString())
          .collect(Collectors.toSet());
    }
  }

  @Test
  void onANearlyFullCacheAFileOneJvmMetIsCachedByTheNextJvmToReadIt() throws Exception {
    File root = LocalTaps.newDir("twojvm");
    File cache = new File(LocalTaps.newDir("twojvmcache"), "pages");
    randomFile(new File(root, "a.bin"), LENGTH, 7);
    byte[] b = randomFile(new File(root, "b.bin"), LENGTH, 8);
    String quota = String.valueOf(41L * (CacheTestSupport.PAGE + 200));

    result(reader(root, cache, "a.bin", 1, quota)); // fills the cache
    Set<String> full = pageFiles(cache);
    Map<String, String> firstTask = result(reader(root, cache, "b.bin", 1, quota));
    assertThat(firstTask.get("sha256")).isEqualTo(sha(b));
    assertThat(pageFiles(cache)).as("a first read of b on a nearly full cache").isEqualTo(full);

    Map<String, String> nextTask = result(reader(root, cache, "b.bin", 1, quota));
    assertThat(nextTask.get("sha256")).isEqualTo(sha(b));
    assertThat(pageFiles(cache))
        .as("the next JVM to read b caches it: the host remembers the first one met it")
        .isNotEqualTo(full);
  }
}
