package dev.dtap.fs.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.config.ConfigKey;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the key tables of {@code docs/configuration.md} so that tests can pin every key a module
 * reads, with its default, to the documentation.
 */
public final class ConfigDocs {
  private static final Pattern ROW =
      Pattern.compile("^\\|\\s*`([^`]+)`\\s*\\|\\s*([^|]*?)\\s*\\|(.*)\\|\\s*$");

  private ConfigDocs() {}

  /**
   * @return {@code docs/configuration.md} of this repository
   */
  public static File file() {
    String dir = System.getProperty("dtap.docs.dir");
    File docs = dir != null ? new File(dir) : null;
    if (docs == null || !docs.isDirectory()) {
      for (File d = new File(System.getProperty("user.dir")).getAbsoluteFile();
          d != null;
          d = d.getParentFile()) {
        if (new File(d, "docs/configuration.md").isFile()) {
          docs = new File(d, "docs");
          break;
        }
      }
    }
    assertThat(docs).as("the docs directory").isNotNull();
    return new File(docs, "configuration.md");
  }

  /**
   * Every documented key with its default cell, in document order.
   *
   * @return key to default cell (backticks removed)
   * @throws IOException if the file cannot be read
   */
  public static Map<String, String> documented() throws IOException {
    Map<String, String> keys = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file().toPath(), StandardCharsets.UTF_8)) {
      Matcher m = ROW.matcher(line);
      if (m.matches()) {
        keys.put(m.group(1), m.group(2).replace("`", "").trim());
      }
    }
    return keys;
  }

  /**
   * Asserts that each key is documented with its default; keys without a default must say "(none)"
   * or "(required)".
   *
   * @param keys a module's key registry
   * @throws IOException if the file cannot be read
   */
  public static void assertDocumented(Collection<ConfigKey<?>> keys) throws IOException {
    Map<String, String> documented = documented();
    for (ConfigKey<?> key : keys) {
      assertThat(documented)
          .as("docs/configuration.md documents %s", key.name())
          .containsKey(key.name());
      String cell = documented.get(key.name());
      if (key.defaultValue() == null) {
        assertThat(cell).as("default of %s", key.name()).isIn("(none)", "(required)");
      } else {
        assertThat(cell).as("default of %s", key.name()).isEqualTo(key.defaultValue());
      }
    }
  }
}
