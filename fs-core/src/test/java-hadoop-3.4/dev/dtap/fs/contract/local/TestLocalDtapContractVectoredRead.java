package dev.dtap.fs.contract.local;

import dev.dtap.fs.contract.LocalDtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's vectored-read contract on dtap over a local directory (heap and direct buffers). */
public class TestLocalDtapContractVectoredRead extends AbstractContractVectoredReadTest {
  public TestLocalDtapContractVectoredRead(String bufferType) {
    super(bufferType);
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new LocalDtapContract(conf);
  }
}
