package dev.dtap.commit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** The commit protocol scenarios for the staging committer, on the local multipart store. */
class TestStagingCommitProtocol extends AbstractDtapCommitProtocolTest {
  @Override
  protected String committerName() {
    return "staging";
  }

  @Override
  protected Configuration newConfiguration() throws Exception {
    return LocalCommitProtocolSupport.conf();
  }

  @Override
  protected Path newDestination() {
    return LocalCommitProtocolSupport.newDestination();
  }
}
