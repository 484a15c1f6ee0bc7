package dev.dtap.fs.contract.local;

import dev.dtap.fs.contract.LocalDtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractCopyFromLocalTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's CopyFromLocal contract on dtap over a local directory. */
public class TestLocalDtapContractCopyFromLocal extends AbstractContractCopyFromLocalTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new LocalDtapContract(conf);
  }
}
