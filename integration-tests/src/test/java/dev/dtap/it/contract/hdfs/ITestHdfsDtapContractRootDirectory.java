package dev.dtap.it.contract.hdfs;

import dev.dtap.it.contract.HdfsDtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractRootDirectoryTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's RootDirectory contract on dtap over HDFS (MiniDFSCluster). */
public class ITestHdfsDtapContractRootDirectory extends AbstractContractRootDirectoryTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new HdfsDtapContract(conf);
  }
}
