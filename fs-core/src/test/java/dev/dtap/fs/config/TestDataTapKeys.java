package dev.dtap.fs.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.ConfigDocs;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** fs-core's keys are unique, well formed and documented with their defaults. */
class TestDataTapKeys {
  @Test
  void everyKeyIsDocumentedWithItsDefault() throws Exception {
    ConfigDocs.assertDocumented(DataTapKeys.all());
  }

  @Test
  void keysAreUniqueAndNamespaced() {
    Set<String> names = new HashSet<>();
    for (ConfigKey key : DataTapKeys.all()) {
      assertThat(names.add(key.name())).as("duplicate %s", key.name()).isTrue();
      assertThat(key.name()).matches("fs\\.(dtap|AbstractFileSystem\\.dtap)\\..+");
      assertThat(key.description()).isNotBlank();
      if (key.name().startsWith(DataTapKeys.TAP_PREFIX)) {
        assertThat(key.isPerTap()).isTrue();
        assertThat(key.forTap("x")).startsWith("fs.dtap.tap.x.");
      }
    }
  }

  @Test
  void defaultsInTheRegistryAreTheDefaultsTheParserApplies() throws Exception {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(false);
    conf.set("fs.dtap.tap.d.uri", "file:///tmp/d");
    TapConfig tap = DataTapConfig.parse(conf, java.util.Collections.emptyList()).tap("d");
    assertThat(String.valueOf(tap.readOnly())).isEqualTo(DataTapKeys.TAP_READONLY.defaultValue());
    assertThat(String.valueOf(tap.checkSymlinks()))
        .isEqualTo(DataTapKeys.TAP_CHECK_SYMLINKS.defaultValue());
    assertThat(String.valueOf(tap.cacheEnabled()))
        .isEqualTo(DataTapKeys.CACHE_ENABLED.defaultValue());
    assertThat(String.valueOf(tap.localityEnabled()))
        .isEqualTo(DataTapKeys.LOCALITY_ENABLED.defaultValue());
  }
}
