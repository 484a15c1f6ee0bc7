package dev.dtap.it.contract.hdfs;

import dev.dtap.it.contract.HdfsDtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractAppendTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's Append contract on dtap over HDFS (MiniDFSCluster). */
public class ITestHdfsDtapContractAppend extends AbstractContractAppendTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new HdfsDtapContract(conf);
  }
}
