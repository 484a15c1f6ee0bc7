package dev.dtap.cache.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's vectored-read contract (Hadoop 3.4 suite) on a cached local tap. */
public class TestCachedDtapContractVectoredRead extends AbstractContractVectoredReadTest {
  public TestCachedDtapContractVectoredRead(String bufferType) {
    super(bufferType);
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new CachedLocalDtapContract(conf);
  }
}
