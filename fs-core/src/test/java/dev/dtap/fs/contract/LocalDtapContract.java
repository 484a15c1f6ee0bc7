package dev.dtap.fs.contract;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/** dtap over a local directory: the unit-test backend of the contract suites. */
public final class LocalDtapContract extends DtapContract {
  public LocalDtapContract(Configuration conf) {
    super(conf, "contract-local");
  }

  @Override
  protected String capabilities() {
    return "contract/dtap-local.xml";
  }

  @Override
  protected URI tapRoot() throws IOException {
    File root =
        new File(System.getProperty("test.build.data", "target/test-data"), "dtap-contract-local");
    if (!root.isDirectory() && !root.mkdirs()) {
      throw new IOException("Cannot create the local tap root " + root);
    }
    return root.getCanonicalFile().toURI();
  }
}
