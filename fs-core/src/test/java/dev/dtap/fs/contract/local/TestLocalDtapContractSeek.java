package dev.dtap.fs.contract.local;

import dev.dtap.fs.contract.LocalDtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSeekTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's Seek contract on dtap over a local directory. */
public class TestLocalDtapContractSeek extends AbstractContractSeekTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new LocalDtapContract(conf);
  }
}
