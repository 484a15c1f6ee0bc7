package dev.dtap.commit;

import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** One local tap per test class, with the local multipart store; a fresh directory per test. */
final class LocalCommitProtocolSupport {
  private static File root;
  private static File staging;
  private static int dirs;

  private LocalCommitProtocolSupport() {}

  static synchronized Configuration conf() throws IOException {
    if (root == null) {
      root = LocalTaps.newDir("commit-root");
      staging = LocalTaps.newDir("commit-staging");
    }
    Configuration conf = new Configuration();
    LocalTaps.addTap(conf, "commit", root);
    conf.set(CommitterKeys.STAGING_DIR.name(), staging.getAbsolutePath());
    return conf;
  }

  static synchronized Path newDestination() {
    return new Path("dtap://commit/out-" + (++dirs));
  }
}
