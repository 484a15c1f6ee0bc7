package dev.dtap.it.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.AbstractDtapCommitProtocolTest;
import dev.dtap.it.fixtures.MinioFixture;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The commit protocol scenarios for the magic committer on MinIO with unsigned part payloads
 * ({@code fs.dtap.committer.signed-payload=false}): every upload carries CRC32C checksums, which
 * initiate, every part and complete must agree on.
 */
class ITestMagicCommitProtocolS3UnsignedPayload extends AbstractDtapCommitProtocolTest {
  private static final String TAP = "commits3-unsigned";

  /** The scenarios' committed output went up with checksums, so the setting reached the store. */
  @AfterAll
  static void committedOutputCarriesChecksums() throws Exception {
    MinioFixture minio = MinioFixture.get();
    List<String> committed = new ArrayList<>();
    for (S3Object o :
        minio.client()
            .listObjectsV2Paginator(b -> b.bucket(S3Commits.bucket()).prefix("warehouse/magic-unsigned-"))
            .contents()) {
      if (o.key().matches(".*/part-[^/]*")) {
        committed.add(o.key());
      }
    }
    assertThat(committed).as("committed output of the scenarios").isNotEmpty();
    for (String key : committed) {
      String crc =
          minio.client()
              .headObject(b -> b.bucket(S3Commits.bucket()).key(key).checksumMode(ChecksumMode.ENABLED))
              .checksumCRC32C();
      assertThat(crc).as(key).isNotEmpty();
    }
  }

  @Override
  protected String committerName() {
    return "magic";
  }

  @Override
  protected Configuration newConfiguration() throws Exception {
    Configuration conf = S3Commits.conf(TAP);
    conf.setBoolean("fs.dtap.committer.signed-payload", false);
    return conf;
  }

  @Override
  protected Path newDestination() {
    return S3Commits.newDestination(TAP, "magic-unsigned");
  }
}
