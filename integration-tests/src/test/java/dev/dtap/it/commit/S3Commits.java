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

  static synchronized Configuration conf() throws IOException {
    MinioFixture minio = MinioFixture.get();
    if (bucket == null) {
      bucket = minio.createBucket("commit");
      staging = Files.createTempDirectory("dtap-staging").toFile();
    }
    Configuration conf = new Configuration();
    minio.addTap(conf, TAP, bucket, "warehouse");
    conf.set("fs.dtap.committer.staging.dir", staging.getAbsolutePath());
    return conf;
  }

  static synchronized Path newDestination(String name) {
    return new Path("dtap://" + TAP + "/" + name + "-" + (++dirs));
  }

  static synchronized String bucket() {
    return bucket;
  }
}
