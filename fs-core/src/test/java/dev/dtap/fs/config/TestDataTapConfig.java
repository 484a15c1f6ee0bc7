package dev.dtap.fs.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.testing.Canary;
import java.util.Collections;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class TestDataTapConfig {
  private static Configuration conf() {
    return new Configuration(false);
  }

  private static DataTapConfig parse(Configuration conf) throws InvalidConfigurationException {
    return DataTapConfig.parse(conf, Collections.emptyList());
  }

  @Test
  void parsesTapsWithDefaults() throws Exception {
    Configuration c = conf();
    c.set("fs.dtap.tap.lake.uri", "s3a://bucket/warehouse/");
    c.set("fs.dtap.tap.hist.uri", "hdfs://nn:8020/data//x");
    c.set("fs.dtap.tap.hist.readonly", "TRUE");
    c.set("fs.dtap.tap.hist.conf.dfs.replication", "2");
    DataTapConfig parsed = parse(c);
    assertThat(parsed.tapNames()).containsExactly("hist", "lake");
    TapConfig lake = parsed.tap("lake");
    assertThat(lake.root().toString()).isEqualTo("s3a://bucket/warehouse");
    assertThat(lake.readOnly()).isFalse();
    assertThat(lake.cacheEnabled()).isFalse();
    assertThat(lake.localityEnabled()).isFalse();
    assertThat(lake.checkSymlinks()).isTrue();
    TapConfig hist = parsed.tap("hist");
    assertThat(hist.root().toString()).isEqualTo("hdfs://nn:8020/data/x");
    assertThat(hist.readOnly()).isTrue();
    assertThat(hist.backendOverrides()).containsEntry("dfs.replication", "2");
    assertThat(parsed.tap("nope")).isNull();
  }

  @Test
  void globalSwitchesAreDefaultsPerTap() throws Exception {
    Configuration c = conf();
    c.set("fs.dtap.cache.enabled", "true");
    c.set("fs.dtap.locality.enabled", "true");
    c.set("fs.dtap.tap.a.uri", "file:///tmp/a");
    c.set("fs.dtap.tap.b.uri", "file:///tmp/b");
    c.set("fs.dtap.tap.b.cache", "false");
    c.set("fs.dtap.tap.b.locality", "false");
    DataTapConfig parsed = parse(c);
    assertThat(parsed.tap("a").cacheEnabled()).isTrue();
    assertThat(parsed.tap("a").localityEnabled()).isTrue();
    assertThat(parsed.tap("b").cacheEnabled()).isFalse();
    assertThat(parsed.tap("b").localityEnabled()).isFalse();
    assertThat(parsed.tap("a").root().toString()).isEqualTo("file:/tmp/a");
  }

  @Test
  void badBooleanNamesKeyAndAcceptedValues() {
    Configuration c = conf();
    c.set("fs.dtap.tap.a.uri", "file:///tmp/a");
    c.set("fs.dtap.tap.a.readonly", "maybe");
    assertThatThrownBy(() -> parse(c).tap("a"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("fs.dtap.tap.a.readonly")
        .hasMessageContaining("'maybe'")
        .hasMessageContaining("true or false");
  }

  @Test
  void invalidTapNamesAreRefused() {
    for (String name : new String[] {"My_Tap", "-x", "UPPER", "a.b"}) {
      Configuration c = conf();
      c.set("fs.dtap.tap." + name + ".uri", "file:///tmp/a");
      // a dot ends the name: a.b is tap a with an unknown setting
      String tap = name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
      assertThatThrownBy(() -> parse(c).tap(tap), name)
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("fs.dtap.tap." + name);
    }
    Configuration tooLong = conf();
    String name = "a" + "b".repeat(63);
    tooLong.set("fs.dtap.tap." + name + ".uri", "file:///tmp/a");
    assertThatThrownBy(() -> parse(tooLong).tap(name)).hasMessageContaining("Invalid tap name");
  }

  @Test
  void unknownKeyListsAcceptedSettings() {
    Configuration c = conf();
    c.set("fs.dtap.tap.a.uri", "file:///tmp/a");
    c.set("fs.dtap.tap.a.readOnly", "true");
    assertThatThrownBy(() -> parse(c).tap("a"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("Unknown key fs.dtap.tap.a.readOnly")
        .hasMessageContaining("readonly")
        .hasMessageContaining("conf.");
  }

  @Test
  void extensionKeysAreAccepted() throws Exception {
    Configuration c = conf();
    c.set("fs.dtap.tap.a.uri", "file:///tmp/a");
    c.set("fs.dtap.tap.a.cache.page.size", "1m");
    assertThatThrownBy(() -> parse(c).tap("a")).hasMessageContaining("cache.page.size");
    DataTapConfig parsed =
        DataTapConfig.parse(
            c,
            Collections.singletonList(
                ConfigKey.of("fs.dtap.tap.<name>.cache.page.size", "1m", "page size")));
    assertThat(parsed.tap("a")).isNotNull();
  }

  @Test
  void missingUriIsReported() {
    Configuration c = conf();
    c.set("fs.dtap.tap.a.readonly", "true");
    assertThatThrownBy(() -> parse(c).tap("a"))
        .hasMessageContaining("fs.dtap.tap.a.uri is not set")
        .hasMessageContaining("readonly");
  }

  @Test
  void badUrisAreRefusedWithoutShowingCredentials() {
    String secret = Canary.secret("uri");
    String[][] cases = {
      {"s3a://AKIA:" + secret + "@bucket/x", "must not contain credentials"},
      {"dtap://other/x", "points at a dtap:// location"},
      {"relative/path", "absolute hierarchical URI"},
      {"mailto:x@y", "absolute hierarchical URI"},
      {"hdfs://nn/a/../b", "without '.' or '..'"},
      {"s3a://bucket/x?versionId=1", "absolute hierarchical URI"},
      {"s3a://b ad/" + secret, "Invalid URI"},
      {"s3a://b%20ad/x", "Invalid URI"},
    };
    for (String[] tc : cases) {
      Configuration c = conf();
      c.set("fs.dtap.tap.a.uri", tc[0]);
      assertThatThrownBy(() -> parse(c).tap("a"), tc[0])
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("fs.dtap.tap.a.uri")
          .hasMessageContaining(tc[1])
          .hasMessageNotContaining(Canary.MARKER);
    }
  }

  @Test
  void aBadTapBreaksOnlyItself() throws Exception {
    Configuration c = conf();
    c.set("fs.dtap.tap.good.uri", "file:///tmp/good");
    c.set("fs.dtap.tap.bad.uri", "relative/path");
    c.set("fs.dtap.tap.typo.readOnly", "true");
    c.set("fs.dtap.tap.Upper.uri", "file:///tmp/u");
    DataTapConfig parsed = parse(c);
    assertThat(parsed.tap("good").root().toString()).isEqualTo("file:/tmp/good");
    assertThat(parsed.tapNames()).containsExactly("Upper", "bad", "good", "typo");
    assertThat(parsed.invalidTaps()).containsOnlyKeys("Upper", "bad", "typo");
    assertThatThrownBy(() -> parsed.tap("bad")).hasMessageContaining("fs.dtap.tap.bad.uri");
    assertThatThrownBy(() -> parsed.tap("typo")).hasMessageContaining("fs.dtap.tap.typo.readOnly");
  }

  @Test
  void uriesAcceptWhatHadoopsPathAcceptsEncodedOrNot() throws Exception {
    String[][] cases = {
      {"file:///data/my dir", "/data/my dir"},
      {"file:///data/my%20dir", "/data/my dir"},
      {"file:///data/über ünd", "/data/über ünd"},
      {"hdfs://nn:8020/a b/c", "/a b/c"},
      {"s3a://bucket/with space/x+y", "/with space/x+y"},
    };
    for (String[] tc : cases) {
      Configuration c = conf();
      c.set("fs.dtap.tap.a.uri", tc[0]);
      assertThat(parse(c).tap("a").root().getPath()).as(tc[0]).isEqualTo(tc[1]);
    }
  }

  @Test
  void toStringShowsOverrideNamesOnly() throws Exception {
    Configuration c = conf();
    String secret = Canary.secret("override");
    c.set("fs.dtap.tap.a.uri", "s3a://bucket/x");
    c.set("fs.dtap.tap.a.conf.fs.s3a.secret.key", secret);
    TapConfig tap = parse(c).tap("a");
    assertThat(tap.toString()).contains("fs.s3a.secret.key").doesNotContain(Canary.MARKER);
    assertThat(tap.backendOverrides()).containsEntry("fs.s3a.secret.key", secret);
  }

  @Test
  void secretsAreRecognised() {
    Secrets secrets = Secrets.from(new Configuration());
    for (String key :
        new String[] {
          "fs.s3a.secret.key",
          "fs.s3a.access.key",
          "fs.s3a.session.token",
          "fs.s3a.bucket.b.secret.key",
          "fs.azure.account.key.acct.blob.core.windows.net",
          "ssl.server.keystore.password",
          "fs.dtap.tap.x.conf.fs.s3a.encryption.key",
          "hadoop.security.credstore.java-keystore-provider.password-file",
        }) {
      assertThat(secrets.sensitive(key)).as(key).isTrue();
      assertThat(secrets.redact(key, "v")).isEqualTo(Secrets.REDACTED);
    }
    assertThat(secrets.sensitive("fs.s3a.endpoint")).isFalse();
    assertThat(secrets.sensitive("dfs.replication")).isFalse();
  }

  @Test
  void sensitiveValuesAreNotQuotedInErrors() {
    InvalidConfigurationException e =
        ConfigReader.invalid("fs.s3a.secret.key", Canary.secret("x"), "something");
    assertThat(e.getMessage()).doesNotContain(Canary.MARKER).contains("<redacted>");
  }

  @Test
  void readerParsesSizesAndDurations() throws Exception {
    Configuration c = conf();
    c.set("s1", "64k");
    c.set("s2", "128MiB");
    c.set("s3", "2g");
    c.set("s4", "-1");
    c.set("d1", "500ms");
    c.set("d2", "30");
    c.set("d3", "5m");
    c.set("e", "block-size");
    ConfigReader r = new ConfigReader(c);
    assertThat(r.getBytes("s1", 0, 0, Long.MAX_VALUE)).isEqualTo(64 * 1024);
    assertThat(r.getBytes("s2", 0, 0, Long.MAX_VALUE)).isEqualTo(128L << 20);
    assertThat(r.getBytes("s3", 0, 0, Long.MAX_VALUE)).isEqualTo(2L << 30);
    assertThat(r.getBytes("unset", 7, 0, 10)).isEqualTo(7);
    assertThatThrownBy(() -> r.getBytes("s4", 0, 0, 10)).hasMessageContaining("s4");
    assertThatThrownBy(() -> r.getBytes("s3", 0, 0, 1 << 20)).hasMessageContaining("from 0 to 1m");
    assertThat(
            r.getDuration("d1", null, "s", java.time.Duration.ZERO, java.time.Duration.ofDays(1)))
        .isEqualTo(java.time.Duration.ofMillis(500));
    assertThat(
            r.getDuration("d2", null, "s", java.time.Duration.ZERO, java.time.Duration.ofDays(1)))
        .isEqualTo(java.time.Duration.ofSeconds(30));
    assertThat(
            r.getDuration("d3", null, "s", java.time.Duration.ZERO, java.time.Duration.ofDays(1)))
        .isEqualTo(java.time.Duration.ofMinutes(5));
    assertThat(r.getEnum("e", Sample.class, Sample.NONE)).isEqualTo(Sample.BLOCK_SIZE);
    c.set("e", "other");
    assertThatThrownBy(() -> r.getEnum("e", Sample.class, Sample.NONE))
        .hasMessageContaining("[none, block-size]");
    c.set("i", "70");
    assertThatThrownBy(() -> r.getInt("i", 1, 1, 64)).hasMessageContaining("from 1 to 64");
  }

  enum Sample {
    NONE,
    BLOCK_SIZE
  }
}
