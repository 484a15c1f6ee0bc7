package dev.dtap.it.contract.s3;

import dev.dtap.it.contract.S3DtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractBulkDeleteTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's BulkDelete contract on dtap over S3A (MinIO). */
public class ITestS3DtapContractBulkDelete extends AbstractContractBulkDeleteTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new S3DtapContract(conf);
  }
}
