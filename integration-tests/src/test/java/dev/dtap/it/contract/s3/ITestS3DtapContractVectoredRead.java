package dev.dtap.it.contract.s3;

import dev.dtap.it.contract.S3DtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's vectored-read contract on dtap over the S3 backend (heap and direct buffers). */
public class ITestS3DtapContractVectoredRead extends AbstractContractVectoredReadTest {
  public ITestS3DtapContractVectoredRead(String bufferType) {
    super(bufferType);
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new S3DtapContract(conf);
  }
}
