package dev.dtap.fs;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.DelegateToFileSystem;

/**
 * The {@code dtap} scheme for {@link org.apache.hadoop.fs.FileContext} users (YARN log aggregation,
 * MapReduce job history, Hive). Bind it with {@code fs.AbstractFileSystem.dtap.impl =
 * dev.dtap.fs.DataTapFs}; every call goes to a {@link DataTapFileSystem} for the URI's tap.
 */
public class DataTapFs extends DelegateToFileSystem {
  /**
   * Called by {@link org.apache.hadoop.fs.AbstractFileSystem#createFileSystem}.
   *
   * @param uri a dtap URI naming a tap
   * @param conf the configuration
   * @throws IOException if the tap cannot be opened
   * @throws URISyntaxException if the URI is malformed
   */
  public DataTapFs(URI uri, Configuration conf) throws IOException, URISyntaxException {
    // authorityNeeded=false: Hadoop demands a default port otherwise; DataTapFileSystem itself
    // refuses a URI without a tap, with a message listing the configured taps.
    super(uri, new DataTapFileSystem(), conf, DataTapFileSystem.SCHEME, false);
  }

  @Override
  public int getUriDefaultPort() {
    return -1;
  }
}
