package dev.dtap.it.commit;

import dev.dtap.commit.AbstractDtapCommitProtocolTest;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;

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
    S3Commits.assertCommittedWithChecksums("magic-unsigned-");
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
