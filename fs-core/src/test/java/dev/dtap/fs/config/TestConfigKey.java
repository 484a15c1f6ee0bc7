package dev.dtap.fs.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** A key declared once carries its type, default and range to every read and to the docs. */
class TestConfigKey {
  private enum Mode {
    FAST_PATH,
    SAFE
  }

  private static final ConfigKey<Long> SIZE =
      ConfigKey.bytes("x.size", 1L << 20, 64L << 10, 16L << 20, "A size.");
  private static final ConfigKey<Integer> COUNT =
      ConfigKey.integer("x.count", 4, 0, 256, "A count.");
  private static final ConfigKey<Duration> WAIT =
      ConfigKey.duration(
          "x.wait",
          Duration.ofMillis(500),
          "ms",
          Duration.ofMillis(1),
          Duration.ofMinutes(10),
          "A wait.");
  private static final ConfigKey<Mode> MODE =
      ConfigKey.choice("x.mode", Mode.class, Mode.FAST_PATH, "A mode.");
  private static final ConfigKey<Boolean> FLAG =
      ConfigKey.bool("fs.dtap.tap.<name>.flag", false, "A per-tap flag.")
          .documentedDefault("value of x.flag");

  @Test
  void unsetKeysReadTheirDeclaredDefault() throws Exception {
    Configuration conf = new Configuration(false);
    assertThat(SIZE.get(conf)).isEqualTo(1L << 20);
    assertThat(COUNT.get(conf)).isEqualTo(4);
    assertThat(WAIT.get(conf)).isEqualTo(Duration.ofMillis(500));
    assertThat(MODE.get(conf)).isEqualTo(Mode.FAST_PATH);
    assertThat(FLAG.getForTap(conf, "t")).isFalse();
    assertThat(FLAG.getForTap(conf, "t", true)).as("a default computed by the caller").isTrue();
  }

  @Test
  void theDocumentedDefaultIsWrittenFromTheTypedDefault() {
    assertThat(SIZE.defaultValue()).isEqualTo("1m");
    assertThat(COUNT.defaultValue()).isEqualTo("4");
    assertThat(WAIT.defaultValue()).isEqualTo("500ms");
    assertThat(
            ConfigKey.duration(
                    "x.d", Duration.ofSeconds(60), "s", Duration.ZERO, Duration.ofHours(1), "D.")
                .defaultValue())
        .isEqualTo("60s");
    assertThat(MODE.defaultValue()).isEqualTo("fast-path");
    assertThat(FLAG.defaultValue()).isEqualTo("value of x.flag");
    assertThat(SIZE.accepted()).isEqualTo("a size from 64k to 16m");
    assertThat(MODE.accepted()).isEqualTo("one of [fast-path, safe]");
    assertThat(COUNT.type()).isEqualTo(Integer.class);
  }

  @Test
  void valuesAreParsedAndCheckedAgainstTheDeclaredRange() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("x.size", "128k");
    conf.set("x.mode", "Safe");
    conf.set("fs.dtap.tap.t.flag", "true");
    assertThat(SIZE.get(conf)).isEqualTo(128L << 10);
    assertThat(MODE.get(conf)).isEqualTo(Mode.SAFE);
    assertThat(FLAG.getForTap(conf, "t")).isTrue();
    conf.set("x.size", "32m");
    assertThatThrownBy(() -> SIZE.get(conf))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("x.size")
        .hasMessageContaining("a size from 64k to 16m");
    conf.set("x.count", "257");
    assertThatThrownBy(() -> COUNT.get(conf))
        .hasMessageContaining("x.count")
        .hasMessageContaining("from 0 to 256");
    conf.set("x.mode", "slow");
    assertThatThrownBy(() -> MODE.get(conf))
        .hasMessageContaining("x.mode")
        .hasMessageContaining("[fast-path, safe]");
    assertThatThrownBy(() -> SIZE.forTap("t")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void textKeysReturnTheTrimmedValueOrNothing() throws Exception {
    ConfigKey<String> hosts = ConfigKey.text("x.hosts", null, "Hosts.");
    Configuration conf = new Configuration(false);
    assertThat(hosts.get(conf)).isNull();
    conf.set("x.hosts", "  a,b ");
    assertThat(hosts.get(conf)).isEqualTo("a,b");
  }

  @Test
  void aLocalPathTheFilesystemCannotNameIsABadValueOfItsKey() throws Exception {
    assertThat(ConfigReader.localPath("x.dir", "/var/cache", true).toString())
        .isEqualTo("/var/cache");
    assertThat(ConfigReader.localPath("x.file", "hosts.txt", false).toString())
        .isEqualTo("hosts.txt");
    assertThatThrownBy(() -> ConfigReader.localPath("x.dir", "/var/ca\u0000che", true))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("x.dir")
        .hasMessageContaining("an absolute local path");
    assertThatThrownBy(() -> ConfigReader.localPath("x.file", "a\u0000", false))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("x.file")
        .hasMessageContaining("a local path");
    assertThatThrownBy(() -> ConfigReader.localPath("x.dir", "relative/dir", true))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("x.dir");
  }
}
