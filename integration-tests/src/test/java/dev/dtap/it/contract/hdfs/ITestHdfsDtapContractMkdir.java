package dev.dtap.it.contract.hdfs;

import dev.dtap.it.contract.HdfsDtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractMkdirTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's Mkdir contract on dtap over HDFS (MiniDFSCluster). */
public class ITestHdfsDtapContractMkdir extends AbstractContractMkdirTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new HdfsDtapContract(conf);
  }
}
