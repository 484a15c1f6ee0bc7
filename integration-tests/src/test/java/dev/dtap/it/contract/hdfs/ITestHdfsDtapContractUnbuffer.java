package dev.dtap.it.contract.hdfs;

import dev.dtap.it.contract.HdfsDtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractUnbufferTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's Unbuffer contract on dtap over HDFS (MiniDFSCluster). */
public class ITestHdfsDtapContractUnbuffer extends AbstractContractUnbufferTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new HdfsDtapContract(conf);
  }
}
