package dev.dtap.it.contract.s3;

import dev.dtap.it.contract.S3DtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's open contract on dtap over S3A (MinIO). */
public class ITestS3DtapContractOpen extends AbstractContractOpenTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new S3DtapContract(conf);
  }

  /** S3A reports every object as encrypted (S3 encrypts at rest), and dtap passes that through. */
  @Override
  protected boolean areZeroByteFilesEncrypted() {
    return true;
  }
}
