package dev.dtap.it.contract.s3;

import dev.dtap.it.contract.S3DtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractUnbufferTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's Unbuffer contract on dtap over S3A (MinIO). */
public class ITestS3DtapContractUnbuffer extends AbstractContractUnbufferTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new S3DtapContract(conf);
  }
}
