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
    assertThat(c.writeMemory()).as("a sixteenth for the disk's queue").isEqualTo(300 * MIB / 16);
  }

  @Test
  void aSparkDriverQueuesTwoRowGroupsOfPagesForTheDisk() throws Exception {
    CacheConfig c = CacheConfig.parse(conf(), 1L << 30);

    assertThat(c.writeMemory()).as("two tasks landing 18 MB each").isGreaterThan(2 * 18 * MIB);
  }

  @Test
  void aLargeHeapIsCappedAtTheDeclaredDefaults() throws Exception {
    CacheConfig c = CacheConfig.parse(conf(), 16L << 30);

    assertThat(c.memoryBytes()).isEqualTo(256 * MIB);
    assertThat(c.prefetchMemory()).isEqualTo(64 * MIB);
    assertThat(c.writeMemory()).isEqualTo(128 * MIB);
  }

  @Test
  void aTinyHeapStillLetsOnePageBeInFlight() throws Exception {
    CacheConfig c = CacheConfig.parse(conf(), 16 * MIB);

    assertThat(c.memoryBytes()).isEqualTo(MIB);
    assertThat(c.prefetchMemory()).as("one page of 1 MiB").isEqualTo(MIB);
    assertThat(c.writeMemory()).as("one page of 1 MiB").isEqualTo(MIB);
  }

  @Test
  void valuesSetAreHonouredWhateverTheHeap() throws Exception {
    Configuration conf = conf();
    conf.set("fs.dtap.cache.memory.size", "128m");
    conf.set("fs.dtap.cache.prefetch.memory", "32m");
    conf.set("fs.dtap.cache.write.memory", "256m");

    CacheConfig c = CacheConfig.parse(conf, 300 * MIB);

    assertThat(c.memoryBytes()).isEqualTo(128 * MIB);
    assertThat(c.prefetchMemory()).isEqualTo(32 * MIB);
    assertThat(c.writeMemory()).isEqualTo(256 * MIB);
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

  @Test
  void aWriteQueueBelowOnePageIsRefusedNamingTheKey() {
    Configuration conf = conf();
    conf.set("fs.dtap.cache.write.memory", "512k");

    assertThatThrownBy(() -> CacheConfig.parse(conf, 300 * MIB))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("fs.dtap.cache.write.memory")
        .hasMessageContaining("page size");
  }
}
