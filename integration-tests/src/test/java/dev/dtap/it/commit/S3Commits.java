package dev.dtap.it.commit;

import dev.dtap.it.fixtures.MinioFixture;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** One MinIO bucket and tap for the committer ITests of a JVM; a fresh directory per test. */
final class S3Commits {
  static final String TAP = "commits3";
  private static String bucket;
  private static File staging;
  private static int dirs;

  private S3Commits() {}

  static Configuration conf() throws IOException {
    return conf(TAP);
  }

  /**
   * The configuration of a tap over the shared bucket. Settings that change the store (such as
   * {@code fs.dtap.committer.signed-payload}) need a tap name of their own: filesystems, and with
   * them stores, are cached by tap name.
   *
   * @param tap the tap name
   * @return a new configuration
   * @throws IOException if MinIO cannot be reached
   */
  static synchronized Configuration conf(String tap) throws IOException {
    MinioFixture minio = MinioFixture.get();
    if (bucket == null) {
      bucket = minio.createBucket("commit");
      staging = Files.createTempDirectory("dtap-staging").toFile();
    }
    Configuration conf = new Configuration();
    minio.addTap(conf, tap, bucket, "warehouse");
    conf.set("fs.dtap.committer.staging.dir", staging.getAbsolutePath());
    return conf;
  }

  static Path newDestination(String name) {
    return newDestination(TAP, name);
  }

  static synchronized Path newDestination(String tap, String name) {
    return new Path("dtap://" + tap + "/" + name + "-" + (++dirs));
  }

  static synchronized String bucket() {
    return bucket;
  }
}
