package dev.dtap.cache.contract;

import dev.dtap.fs.contract.DtapContract;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/**
 * dtap over a local directory with the read cache on (64 KiB pages, so contract files span several
 * pages): Hadoop's read contracts must hold for the caching stream exactly as for the backend's.
 */
public final class CachedLocalDtapContract extends DtapContract {
  public CachedLocalDtapContract(Configuration conf) {
    super(conf, "contract-cached");
  }

  private static File dir(String name) throws IOException {
    File d = new File(System.getProperty("test.build.data", "target/test-data"), name);
    if (!d.isDirectory() && !d.mkdirs()) {
      throw new IOException("Cannot create " + d);
    }
    return d.getCanonicalFile();
  }

  @Override
  protected String capabilities() {
    return "contract/dtap-local.xml";
  }

  @Override
  protected URI tapRoot() throws IOException {
    return dir("dtap-contract-cached").toURI();
  }

  @Override
  protected void configureTap(Configuration conf) throws IOException {
    conf.set("fs.dtap.tap." + tap() + ".cache", "true");
    conf.set("fs.dtap.cache.dirs", new File(dir("dtap-contract-cache"), "pages").getAbsolutePath());
    conf.set("fs.dtap.cache.page.size", "64k");
    conf.set("fs.dtap.cache.memory.size", "16m");
  }
}
