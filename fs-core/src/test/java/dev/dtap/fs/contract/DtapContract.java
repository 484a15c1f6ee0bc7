package dev.dtap.fs.contract;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/**
 * Hadoop's filesystem contract for dtap over one backend. Each backend subclass names its
 * capability file ({@code contract/dtap-<backend>.xml}) and the backend root of the tap.
 *
 * <p>Each backend has its own tap name, because Hadoop's filesystem cache shares one instance per
 * tap and JVM; for the same reason a tap's root must stay the same for the whole run.
 */
public abstract class DtapContract extends AbstractFSContract {
  private final String tap;
  private FileSystem fs;

  protected DtapContract(Configuration conf, String tap) {
    super(conf);
    this.tap = tap;
  }

  /**
   * @return the tap the contract runs on
   */
  public String tap() {
    return tap;
  }

  /**
   * @return the capability resource, e.g. {@code contract/dtap-local.xml}
   */
  protected abstract String capabilities();

  /**
   * @return the backend root of the tap
   * @throws IOException if the backend cannot be prepared
   */
  protected abstract URI tapRoot() throws IOException;

  /**
   * Adds backend settings (endpoint, credentials) for the tap.
   *
   * @param conf the contract configuration
   * @throws IOException if the backend cannot be prepared
   */
  protected void configureTap(Configuration conf) throws IOException {}

  @Override
  public void init() throws IOException {
    super.init();
    addConfResource(capabilities());
    Configuration conf = getConf();
    conf.set("fs.dtap.tap." + tap + ".uri", tapRoot().toString());
    configureTap(conf);
  }

  @Override
  public FileSystem getTestFileSystem() throws IOException {
    if (fs == null) {
      fs = FileSystem.get(URI.create("dtap://" + tap + "/"), getConf());
    }
    return fs;
  }

  @Override
  public String getScheme() {
    return "dtap";
  }

  @Override
  public Path getTestPath() {
    return new Path("/test");
  }
}
