package dev.dtap.it.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.it.fixtures.RepoRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the formatter (google-java-format, checked by Spotless in every build) leaves to people: no
 * line longer than 100 characters (long string literals and comments it cannot wrap), and no fully
 * qualified type in a field declaration (a field's type is read far more often than written: import
 * it).
 */
class TestSourceStyle {
  private static final int MAX_LINE = 100;
  private static final Pattern QUALIFIED_FIELD =
      Pattern.compile(
          "^\\s+((private|protected|public|static) )+(final )?(volatile )?"
              + "[\\w.]*?(<[^=;(]*)?\\b([a-z][a-z0-9]*\\.){2,}[A-Z]\\w*[^=;(]*\\s\\w+\\s*(=|;)");

  @Test
  void linesFitAndFieldTypesAreImported() throws IOException {
    Path root = RepoRoot.find().toPath();
    List<String> offenders = new ArrayList<>();
    List<Path> sources = sources(root);
    for (Path file : sources) {
      String rel = root.relativize(file).toString().replace('\\', '/');
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.length() > MAX_LINE) {
          offenders.add(rel + ":" + (i + 1) + ": " + line.length() + " characters");
        }
        if (QUALIFIED_FIELD.matcher(line).find()) {
          offenders.add(rel + ":" + (i + 1) + ": qualified field type: " + line.trim());
        }
      }
    }
    assertThat(sources).as("Java sources found under " + root).hasSizeGreaterThan(200);
    assertThat(offenders).as("style offenders").isEmpty();
  }

  @Test
  void theCheckFindsWhatItLooksFor() {
    assertThat(QUALIFIED_FIELD.matcher("  private final java.nio.file.Path root;").find()).isTrue();
    assertThat(
            QUALIFIED_FIELD
                .matcher("  private final Map<String, java.util.List<String>> m = x;")
                .find())
        .isTrue();
    assertThat(QUALIFIED_FIELD.matcher("  private final Path root;").find()).isFalse();
    assertThat(QUALIFIED_FIELD.matcher("  private static final long X = a.b.c.D.E;").find())
        .isFalse();
    assertThat(QUALIFIED_FIELD.matcher("  private void m(java.nio.file.Path p) {").find())
        .isFalse();
  }

  private static List<Path> sources(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      // paths relative to the root: the tree itself may sit under a target directory (CI's
      // copies of it for the other Hadoop lines)
      return s.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> ("/" + root.relativize(p)).contains("/src/"))
          .filter(p -> !("/" + root.relativize(p)).contains("/target/"))
          .filter(p -> !root.relativize(p).toString().startsWith("."))
          .collect(Collectors.toList());
    }
  }
}
