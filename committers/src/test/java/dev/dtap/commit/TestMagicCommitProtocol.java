package dev.dtap.commit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** The commit protocol scenarios for the magic committer, on the local multipart store. */
class TestMagicCommitProtocol extends AbstractDtapCommitProtocolTest {
  @Override
  protected String committerName() {
    return "magic";
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
