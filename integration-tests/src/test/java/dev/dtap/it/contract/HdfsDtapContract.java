package dev.dtap.it.contract;

import dev.dtap.fs.contract.DtapContract;
import dev.dtap.it.fixtures.HdfsFixture;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/** dtap over a directory of the MiniDFSCluster fixture. */
public final class HdfsDtapContract extends DtapContract {
  public HdfsDtapContract(Configuration conf) {
    super(conf, "contract-hdfs");
  }

  @Override
  protected String capabilities() {
    return "contract/dtap-hdfs.xml";
  }

  @Override
  protected URI tapRoot() throws IOException {
    return URI.create(HdfsFixture.get().uri() + "/contract-tap");
  }

  @Override
  protected void configureTap(Configuration conf) throws IOException {
    // the HDFS client settings of the fixture (block size, replication) for the tap's backend
    Configuration hdfs = HdfsFixture.get().conf();
    conf.set("fs.dtap.tap." + tap() + ".conf.dfs.replication", hdfs.get("dfs.replication"));
    conf.set("fs.dtap.tap." + tap() + ".conf.dfs.blocksize", hdfs.get("dfs.blocksize"));
  }
}
