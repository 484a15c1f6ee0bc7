package dev.dtap.it.commit;

import dev.dtap.commit.AbstractDtapCommitProtocolTest;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The commit protocol scenarios for the magic committer on MinIO with every request through S3A's
 * own client ({@code fs.dtap.committer.transport=s3a}), the way taps whose settings only S3A can
 * honour are served.
 */
class ITestMagicCommitProtocolS3Client extends AbstractDtapCommitProtocolTest {
  private static final String TAP = "commits3-client";

  @Override
  protected String committerName() {
    return "magic";
  }

  @Override
  protected Configuration newConfiguration() throws Exception {
    Configuration conf = S3Commits.conf(TAP);
    conf.set("fs.dtap.committer.transport", "s3a");
    return conf;
  }

  @Override
  protected Path newDestination() {
    return S3Commits.newDestination(TAP, "magic-client");
  }
}
