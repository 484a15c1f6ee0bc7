package dev.dtap.commit.s3;

import dev.dtap.fs.testing.Canary;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * S3A filesystems and dtap taps over them for unit tests: S3A 3.4+ builds its client and request
 * factory without contacting the store, so requests can be built, and sent to a server of the
 * test's own, without MinIO.
 */
final class OfflineS3a {
  static final String BUCKET = "bucket";
  static final String ACCESS_KEY = "AKIDDTAPTEST";
  static final String SECRET_KEY = Canary.secret("offline");

  private OfflineS3a() {}

  /**
   * S3A settings for a store at an endpoint, with the test's keys.
   *
   * @param endpoint e.g. {@code http://127.0.0.1:9}
   * @param extra more {@code fs.s3a.*} settings
   * @return the configuration
   */
  static Configuration conf(String endpoint, Map<String, String> extra) {
    Configuration c = new Configuration(false);
    c.set("fs.s3a.endpoint", endpoint);
    c.set("fs.s3a.endpoint.region", "us-east-1");
    c.set("fs.s3a.path.style.access", "true");
    c.set("fs.s3a.connection.ssl.enabled", String.valueOf(endpoint.startsWith("https")));
    c.set(
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    c.set("fs.s3a.access.key", ACCESS_KEY);
    c.set("fs.s3a.secret.key", SECRET_KEY);
    c.set("fs.s3a.attempts.maximum", "3");
    c.set("fs.s3a.retry.limit", "1");
    c.setBoolean("fs.s3a.impl.disable.cache", true);
    c.set("fs.s3a.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
    extra.forEach(c::set);
    return c;
  }

  /**
   * @return a new S3A filesystem of {@code s3a://bucket/}
   */
  static FileSystem s3a(Configuration conf) throws IOException {
    return FileSystem.newInstance(URI.create("s3a://" + BUCKET + "/"), conf);
  }

  /**
   * A dtap configuration with tap {@code lake} over {@code s3a://bucket/warehouse}, the S3A
   * settings as the tap's own.
   *
   * @param s3a S3A settings
   * @param site dtap settings (committer keys)
   * @return the configuration
   */
  static Configuration tap(Configuration s3a, Map<String, String> site) {
    Configuration c = new Configuration(false);
    c.set("fs.dtap.impl", "dev.dtap.fs.DataTapFileSystem");
    c.setBoolean("fs.dtap.impl.disable.cache", true);
    c.set("fs.dtap.tap.lake.uri", "s3a://" + BUCKET + "/warehouse");
    for (Map.Entry<String, String> e : s3a) {
      c.set("fs.dtap.tap.lake.conf." + e.getKey(), e.getValue());
    }
    site.forEach(c::set);
    return c;
  }

  /**
   * @return a new dtap filesystem of tap {@code lake}
   */
  static FileSystem dtap(Configuration conf) throws IOException {
    return FileSystem.newInstance(URI.create("dtap://lake/"), conf);
  }
}
