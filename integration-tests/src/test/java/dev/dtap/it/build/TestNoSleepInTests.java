package dev.dtap.it.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.it.fixtures.RepoRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps fixed sleeps out of the tests: on a shared two-core machine a test that sleeps and then
 * expects background work to be done fails at random or passes without proving anything. Tests wait
 * through {@code dev.dtap.fs.testing.Await} (polling a positive condition), latches or injected
 * clocks. The only other files allowed to sleep are child processes whose pause is the scenario
 * itself: the parent waits on their output or kills them, never on time.
 */
class TestNoSleepInTests {
  private static final Pattern SLEEP = Pattern.compile("\\bsleep\\s*\\(");

  /** Allowed, with why. */
  private static final Map<String, String> ALLOWED = new TreeMap<>();

  static {
    ALLOWED.put(
        "fs-core/src/test/java/dev/dtap/fs/testing/Await.java", "the polling helper itself");
    ALLOWED.put(
        "integration-tests/src/test/java/dev/dtap/it/commit/CommitChild.java",
        "a child JVM that pauses mid-step so its parent can kill it there");
    ALLOWED.put(
        "integration-tests/src/test/java/dev/dtap/it/fixtures/MinioOrphanMain.java",
        "a child JVM that waits to be killed");
  }

  @Test
  void noTestSleepsExceptThroughAwait() throws IOException {
    Path root = RepoRoot.find().toPath();
    List<String> offenders = new ArrayList<>();
    int scanned = 0;
    for (Path file : testSources(root)) {
      scanned++;
      String rel = root.relativize(file).toString().replace('\\', '/');
      if (ALLOWED.containsKey(rel)) {
        continue;
      }
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        String code = line.contains("//") ? line.substring(0, line.indexOf("//")) : line;
        if (SLEEP.matcher(code).find()) {
          offenders.add(rel + ":" + (i + 1) + ": " + line.trim());
        }
      }
    }
    assertThat(scanned).as("test sources found under " + root).isGreaterThan(100);
    assertThat(offenders)
        .as(
            "tests that sleep: wait with dev.dtap.fs.testing.Await (a positive condition), a"
                + " latch or an injected clock")
        .isEmpty();
  }

  @Test
  void everyAllowedFileStillExists() {
    Path root = RepoRoot.find().toPath();
    for (String rel : ALLOWED.keySet()) {
      assertThat(root.resolve(rel)).as("allowed to sleep: " + ALLOWED.get(rel)).exists();
    }
  }

  /** Every module's {@code src/test/java} (modules sit one or two levels below the root). */
  private static List<Path> testSources(Path root) throws IOException {
    List<Path> dirs = new ArrayList<>();
    try (Stream<Path> level1 = Files.list(root)) {
      for (Path m : level1.filter(Files::isDirectory).collect(Collectors.toList())) {
        dirs.add(m.resolve("src/test/java"));
        try (Stream<Path> level2 = Files.list(m)) {
          level2.filter(Files::isDirectory).forEach(n -> dirs.add(n.resolve("src/test/java")));
        }
      }
    }
    List<Path> files = new ArrayList<>();
    for (Path d : dirs) {
      if (Files.isDirectory(d)) {
        try (Stream<Path> all = Files.walk(d)) {
          all.filter(p -> p.toString().endsWith(".java")).forEach(files::add);
        }
      }
    }
    return files;
  }
}
