package dev.dtap.it.commit;

import dev.dtap.commit.AbstractDtapCommitProtocolTest;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** The commit protocol scenarios for the magic committer on MinIO, through S3 multipart uploads. */
class ITestMagicCommitProtocolS3 extends AbstractDtapCommitProtocolTest {
  @Override
  protected String committerName() {
    return "magic";
  }

  @Override
  protected Configuration newConfiguration() throws Exception {
    return S3Commits.conf();
  }

  @Override
  protected Path newDestination() {
    return S3Commits.newDestination("magic");
  }
}
