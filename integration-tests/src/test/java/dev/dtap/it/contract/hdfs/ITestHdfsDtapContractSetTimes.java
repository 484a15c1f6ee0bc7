package dev.dtap.it.contract.hdfs;

import dev.dtap.it.contract.HdfsDtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSetTimesTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's SetTimes contract on dtap over HDFS (MiniDFSCluster). */
public class ITestHdfsDtapContractSetTimes extends AbstractContractSetTimesTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new HdfsDtapContract(conf);
  }
}
