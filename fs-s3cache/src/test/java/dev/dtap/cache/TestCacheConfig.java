package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.config.InvalidConfigurationException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The cache's heap defaults scale with the JVM's heap; values set are honoured as they are. */
class TestCacheConfig {
  private static final long MIB = 1L << 20;

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.tmp.dir", System.getProperty("java.io.tmpdir"));
    return conf;
  }

  @Test
  void aTaskHeapGetsASixteenthForPagesAndAThirtySecondForPagesInFlight() throws Exception {
    CacheConfig c = CacheConfig.parse(conf(), 300 * MIB);

    assertThat(c.memoryBytes()).isEqualTo(300 * MIB / 16);
    assertThat(c.prefetchMemory()).isEqualTo(300 * MIB / 32);
  }

  @Test
  void aLargeHeapIsCappedAtTheDeclaredDefaults() throws Exception {
    CacheConfig c = CacheConfig.parse(conf(), 16L << 30);

    assertThat(c.memoryBytes()).isEqualTo(256 * MIB);
    assertThat(c.prefetchMemory()).isEqualTo(64 * MIB);
  }

  @Test
  void aTinyHeapStillLetsOnePageBeInFlight() throws Exception {
    CacheConfig c = CacheConfig.parse(conf(), 16 * MIB);

    assertThat(c.memoryBytes()).isEqualTo(MIB);
    assertThat(c.prefetchMemory()).as("one page of 1 MiB").isEqualTo(MIB);
  }

  @Test
  void valuesSetAreHonouredWhateverTheHeap() throws Exception {
    Configuration conf = conf();
    conf.set("fs.dtap.cache.memory.size", "128m");
    conf.set("fs.dtap.cache.prefetch.memory", "32m");

    CacheConfig c = CacheConfig.parse(conf, 300 * MIB);

    assertThat(c.memoryBytes()).isEqualTo(128 * MIB);
    assertThat(c.prefetchMemory()).isEqualTo(32 * MIB);
  }

  @Test
  void aPrefetchBudgetBelowOnePageIsRefusedNamingTheKey() {
    Configuration conf = conf();
    conf.set("fs.dtap.cache.prefetch.memory", "512k");

    assertThatThrownBy(() -> CacheConfig.parse(conf, 300 * MIB))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("fs.dtap.cache.prefetch.memory")
        .hasMessageContaining("page size");
  }
}
