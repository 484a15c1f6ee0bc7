package dev.dtap.it.commit;

import dev.dtap.commit.AbstractDtapCommitProtocolTest;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The commit protocol scenarios for the staging committer on MinIO, through S3 multipart uploads.
 */
class ITestStagingCommitProtocolS3 extends AbstractDtapCommitProtocolTest {
  @Override
  protected String committerName() {
    return "staging";
  }

  @Override
  protected Configuration newConfiguration() throws Exception {
    return S3Commits.conf();
  }

  @Override
  protected Path newDestination() {
    return S3Commits.newDestination("staging");
  }
}
