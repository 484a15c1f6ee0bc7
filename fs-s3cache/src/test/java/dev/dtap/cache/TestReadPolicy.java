package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The read policy option is a list of preferences; the first one the cache knows decides. */
class TestReadPolicy {
  @Test
  void noOptionOrAnEmptyOneLeavesTheCacheToWatchTheReads() {
    assertThat(ReadPolicy.parse(null)).isEqualTo(ReadPolicy.ADAPTIVE);
    assertThat(ReadPolicy.parse("")).isEqualTo(ReadPolicy.ADAPTIVE);
    assertThat(ReadPolicy.parse(" , ")).isEqualTo(ReadPolicy.ADAPTIVE);
  }

  @Test
  void singlePoliciesMapToTheirAccessPattern() {
    for (String random : new String[] {"random", "vector", "columnar", "parquet", "orc", "hbase"}) {
      assertThat(ReadPolicy.parse(random)).as(random).isEqualTo(ReadPolicy.RANDOM);
    }
    for (String seq : new String[] {"sequential", "whole-file", "avro", "csv", "json"}) {
      assertThat(ReadPolicy.parse(seq)).as(seq).isEqualTo(ReadPolicy.SEQUENTIAL);
    }
    assertThat(ReadPolicy.parse("adaptive")).isEqualTo(ReadPolicy.ADAPTIVE);
    assertThat(ReadPolicy.parse("default")).isEqualTo(ReadPolicy.ADAPTIVE);
    assertThat(ReadPolicy.parse("normal, random")).isEqualTo(ReadPolicy.ADAPTIVE);
  }

  @Test
  void theFirstKnownEntryOfAListDecides() {
    assertThat(ReadPolicy.parse("parquet, vector, random, adaptive")).isEqualTo(ReadPolicy.RANDOM);
    assertThat(ReadPolicy.parse("future-format, columnar")).isEqualTo(ReadPolicy.RANDOM);
    assertThat(ReadPolicy.parse("whole-file,random")).isEqualTo(ReadPolicy.SEQUENTIAL);
    // a name from a newer Hadoop is skipped for the fallback after it
    assertThat(ReadPolicy.parse("iceberg-manifest, sequential")).isEqualTo(ReadPolicy.SEQUENTIAL);
    // adaptive is a real choice, not an unknown name: it stops the search
    assertThat(ReadPolicy.parse("adaptive, random")).isEqualTo(ReadPolicy.ADAPTIVE);
  }

  @Test
  void namesAreMatchedWholeAndWithoutRegardToCase() {
    assertThat(ReadPolicy.parse(" Random ")).isEqualTo(ReadPolicy.RANDOM);
    assertThat(ReadPolicy.parse("RANDOM,sequential")).isEqualTo(ReadPolicy.RANDOM);
    // a prefix of a known name is not that name
    assertThat(ReadPolicy.parse("randomized")).isEqualTo(ReadPolicy.ADAPTIVE);
    assertThat(ReadPolicy.parse("sequentially, vector")).isEqualTo(ReadPolicy.RANDOM);
  }
}
