package dev.dtap.it.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.it.fixtures.MinioFixture;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.S3Object;

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
   * {@code fs.dtap.committer.conditional-put}) need a tap name of their own: filesystems, and with
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

  /**
   * Asserts that every committed output file under the bucket's destinations starting with a name
   * carries a CRC32C in the store: its upload went with part checksums.
   *
   * @param destinationPrefix the start of the destinations' names, such as {@code magic-unsigned-}
   * @throws IOException if MinIO cannot be reached
   */
  static void assertCommittedWithChecksums(String destinationPrefix) throws IOException {
    MinioFixture minio = MinioFixture.get();
    List<String> committed = new ArrayList<>();
    for (S3Object o :
        minio
            .client()
            .listObjectsV2Paginator(
                b -> b.bucket(bucket()).prefix("warehouse/" + destinationPrefix))
            .contents()) {
      if (o.key().matches(".*/part-[^/]*")) {
        committed.add(o.key());
      }
    }
    assertThat(committed).as("committed output under " + destinationPrefix).isNotEmpty();
    for (String key : committed) {
      String crc =
          minio
              .client()
              .headObject(b -> b.bucket(bucket()).key(key).checksumMode(ChecksumMode.ENABLED))
              .checksumCRC32C();
      assertThat(crc).as(key).isNotEmpty();
    }
  }
}
