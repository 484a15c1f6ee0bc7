package dev.dtap.it.commit;

import dev.dtap.commit.AbstractDtapCommitProtocolTest;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The commit protocol scenarios on MinIO with unsigned part payloads ({@code
 * fs.dtap.committer.signed-payload=false}): every upload carries CRC32C checksums, which initiate,
 * every part and complete must agree on. Each committer gets a tap of its own, since stores are
 * cached by tap.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class UnsignedPayloadS3Scenarios extends AbstractDtapCommitProtocolTest {
  private final String committer;

  UnsignedPayloadS3Scenarios(String committer) {
    this.committer = committer;
  }

  private String tap() {
    return "commits3-unsigned-" + committer;
  }

  /** The scenarios' committed output went up with checksums, so the setting reached the store. */
  @AfterAll
  void committedOutputCarriesChecksums() throws Exception {
    S3Commits.assertCommittedWithChecksums(committer + "-unsigned-");
  }

  @Override
  protected String committerName() {
    return committer;
  }

  @Override
  protected Configuration newConfiguration() throws Exception {
    Configuration conf = S3Commits.conf(tap());
    conf.setBoolean("fs.dtap.committer.signed-payload", false);
    return conf;
  }

  @Override
  protected Path newDestination() {
    return S3Commits.newDestination(tap(), committer + "-unsigned");
  }
}
