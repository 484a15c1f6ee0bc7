package dev.dtap.it.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.testing.Canary;
import dev.dtap.fs.testing.LogCapture;
import dev.dtap.it.fixtures.MinioFixture;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two taps on one MinIO with different users, each allowed only its own bucket: each tap works with
 * its own keys, a tap never borrows another's, and Hadoop's filesystem cache does not mix them.
 */
class ITestS3CredentialIsolation {
  private static MinioFixture minio;
  private static String bucketA;
  private static String bucketB;
  private static final String SECRET_A = Canary.secret("user-a");
  private static final String SECRET_B = Canary.secret("user-b");

  @BeforeAll
  static void users() throws IOException {
    minio = MinioFixture.get();
    bucketA = minio.createBucket("iso-a");
    bucketB = minio.createBucket("iso-b");
    minio.createUser("iso-user-a", SECRET_A, bucketA);
    minio.createUser("iso-user-b", SECRET_B, bucketB);
  }

  private static Configuration conf() {
    Configuration conf = new Configuration();
    // the site-wide S3A keys are user B's: a tap without its own keys would use them
    minio.s3aSettings("iso-user-b", SECRET_B).forEach(conf::set);
    minio.addTap(conf, "a", bucketA, "data", "iso-user-a", SECRET_A);
    minio.addTap(conf, "b", bucketB, "data", "iso-user-b", SECRET_B);
    conf.set("fs.dtap.tap.a-with-site-keys.uri", "s3a://" + bucketA + "/data");
    conf.set("fs.dtap.tap.b-with-a-keys.uri", "s3a://" + bucketB + "/data");
    minio
        .s3aSettings("iso-user-a", SECRET_A)
        .forEach((k, v) -> conf.set("fs.dtap.tap.b-with-a-keys.conf." + k, v));
    return conf;
  }

  private static void write(FileSystem fs, Path p, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String read(FileSystem fs, Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void eachTapUsesOnlyItsOwnKeys() throws Exception {
    Configuration conf = conf();
    StringWriter failures = new StringWriter();
    try (LogCapture logs = LogCapture.start()) {
      // through Hadoop's cache, as jobs get them
      FileSystem a = FileSystem.get(URI.create("dtap://a/"), conf);
      FileSystem b = FileSystem.get(URI.create("dtap://b/"), conf);
      write(a, new Path("dtap://a/x.txt"), "from a");
      write(b, new Path("dtap://b/x.txt"), "from b");
      assertThat(read(a, new Path("dtap://a/x.txt"))).isEqualTo("from a");
      assertThat(read(b, new Path("dtap://b/x.txt"))).isEqualTo("from b");

      // the site keys (user B) cannot reach bucket A: tap a's success was its own keys
      FileSystem siteKeys = FileSystem.get(URI.create("dtap://a-with-site-keys/"), conf);
      Throwable denied =
          catchThrowable(() -> read(siteKeys, new Path("dtap://a-with-site-keys/x.txt")));
      assertThat(denied).isInstanceOf(AccessDeniedException.class);
      denied.printStackTrace(new PrintWriter(failures));

      // user A's keys on tap b-with-a-keys cannot reach bucket B, even after tap b used B's keys
      FileSystem wrong = FileSystem.get(URI.create("dtap://b-with-a-keys/"), conf);
      Throwable refused = catchThrowable(() -> read(wrong, new Path("dtap://b-with-a-keys/x.txt")));
      assertThat(refused).isInstanceOf(AccessDeniedException.class);
      assertThat(refused.getMessage())
          .contains("dtap://b-with-a-keys/x.txt")
          .doesNotContain("s3a://")
          .doesNotContain(bucketB);
      refused.printStackTrace(new PrintWriter(failures));

      // and tap a still works afterwards: nothing was overwritten in a shared cache entry
      assertThat(read(a, new Path("dtap://a/x.txt"))).isEqualTo("from a");
      assertThatThrownBy(
              () -> a.getFileStatus(new Path("dtap://a/../../" + bucketB + "/data/x.txt")))
          .isInstanceOf(org.apache.hadoop.security.AccessControlException.class);
      assertThat(logs.text() + failures).doesNotContain(Canary.MARKER);
    }
  }

  @Test
  void aPageCachedForOneTapIsNeverServedToATapWhoseKeysCannotReadIt() throws Exception {
    Configuration conf = conf();
    java.io.File cacheDir =
        new java.io.File(dev.dtap.it.fixtures.RepoRoot.data(), "iso-cache-" + System.nanoTime());
    conf.set("fs.dtap.cache.dirs", cacheDir.getAbsolutePath());
    conf.set("fs.dtap.cache.scan.admission", "first-read");
    conf.set("fs.dtap.cache.memory.size", "16m"); // the memory tier too: both are shared per JVM
    for (String tap : new String[] {"a", "a-with-site-keys"}) {
      conf.setBoolean("fs.dtap.tap." + tap + ".cache", true);
    }
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    try (LogCapture logs = LogCapture.start();
        FileSystem a = FileSystem.newInstance(URI.create("dtap://a/"), conf);
        FileSystem siteKeys =
            FileSystem.newInstance(URI.create("dtap://a-with-site-keys/"), conf)) {
      write(a, new Path("dtap://a/cached.txt"), "cached by a");
      assertThat(read(a, new Path("dtap://a/cached.txt"))).isEqualTo("cached by a");
      assertThat(read(a, new Path("dtap://a/cached.txt"))).isEqualTo("cached by a");
      dev.dtap.cache.CacheAdmin.flushWrites();
      assertThat(
              ((org.apache.hadoop.fs.statistics.IOStatisticsSource) a).getIOStatistics().counters())
          .as("tap a's reads went through the cache")
          .containsKey("dtap_cache_hits");
      // the same bucket and key through a tap whose keys (user B's) cannot read bucket A
      Throwable denied =
          catchThrowable(() -> read(siteKeys, new Path("dtap://a-with-site-keys/cached.txt")));
      assertThat(denied)
          .as("the cached page must not answer a tap the store refuses")
          .isInstanceOf(AccessDeniedException.class);
      assertThat(logs.text()).doesNotContain(Canary.MARKER);
    }
  }

  private static Throwable catchThrowable(ThrowingRunnable r) {
    try {
      r.run();
      return null;
    } catch (Throwable t) {
      return t;
    }
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }
}
