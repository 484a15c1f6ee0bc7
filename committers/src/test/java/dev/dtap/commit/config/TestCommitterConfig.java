package dev.dtap.commit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.config.ConfigKey;
import dev.dtap.fs.testing.ConfigDocs;
import dev.dtap.fs.testing.LogCapture;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class TestCommitterConfig {
  @Test
  void defaults() throws Exception {
    CommitterConfig c = CommitterConfig.parse(new Configuration(false));
    assertThat(c.name()).isNull();
    assertThat(c.conflictMode()).isEqualTo(ConflictMode.APPEND);
    assertThat(c.partitioned()).isFalse();
    assertThat(c.threads()).isEqualTo(32);
    assertThat(c.partSize()).isEqualTo(8L << 20);
    assertThat(c.activeParts()).isEqualTo(2);
    assertThat(c.markSuccess()).isTrue();
  }

  @Test
  void badValuesNameTheKeyAndTheAcceptedValues() {
    assertBad(CommitterKeys.NAME.name(), "directory", "[magic, staging, file]");
    assertBad(CommitterKeys.CONFLICT_MODE.name(), "overwrite", "fail, append, replace");
    assertBad(CommitterKeys.LAYOUT.name(), "flat", "[directory, partitioned]");
    assertBad(CommitterKeys.THREADS.name(), "0", "1 to 1024");
    assertBad(CommitterKeys.PART_SIZE.name(), "1m", "5m");
    assertBad(CommitterKeys.ACTIVE_PARTS.name(), "many", "1 to 64");
    assertBad(CommitterKeys.CONDITIONAL_PUT.name(), "yes", "true or false");
    assertBad(CommitterKeys.UUID.name(), "a/b", "letters, digits");
  }

  @Test
  void obsoleteKeysAreLoggedAndChangeNothing() throws Exception {
    Configuration conf = new Configuration(false);
    for (String key : CommitterKeys.obsolete().keySet()) {
      conf.set(key, "http");
    }
    assertThat(CommitterKeys.obsolete())
        .containsKeys(
            "fs.dtap.committer.transport",
            "fs.dtap.committer.signed-payload",
            "fs.dtap.committer.part.transport");
    try (LogCapture logs = LogCapture.start()) {
      CommitterConfig c = CommitterConfig.parse(conf);
      assertThat(c.storeOptions().toString())
          .isEqualTo(CommitterConfig.parse(new Configuration(false)).storeOptions().toString());
      for (String key : CommitterKeys.obsolete().keySet()) {
        assertThat(logs.text()).contains("WARN").contains(key + " is obsolete and ignored");
      }
    }
    for (ConfigKey<?> k : CommitterKeys.all()) {
      assertThat(CommitterKeys.obsolete()).doesNotContainKey(k.name());
    }
  }

  private static void assertBad(String key, String value, String accepted) {
    Configuration conf = new Configuration(false);
    conf.set(key, value);
    assertThatThrownBy(() -> CommitterConfig.parse(conf))
        .as(key)
        .hasMessageContaining(key)
        .hasMessageContaining(accepted);
  }

  @Test
  void everyKeyIsDocumented() throws Exception {
    ConfigDocs.assertDocumented(CommitterKeys.all());
  }
}
