package dev.dtap.it.contract;

import dev.dtap.fs.contract.DtapContract;
import dev.dtap.it.fixtures.MinioFixture;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/** dtap over a prefix of a MinIO bucket through S3A, with the tap's own S3A settings. */
public final class S3DtapContract extends DtapContract {
  private static String bucket;

  public S3DtapContract(Configuration conf) {
    super(conf, "contract-s3");
  }

  private static synchronized String bucket() throws IOException {
    if (bucket == null) {
      bucket = MinioFixture.get().createBucket("contract");
    }
    return bucket;
  }

  @Override
  protected String capabilities() {
    return "contract/dtap-s3.xml";
  }

  @Override
  protected URI tapRoot() throws IOException {
    return URI.create("s3a://" + bucket() + "/tap-root");
  }

  @Override
  protected void configureTap(Configuration conf) throws IOException {
    MinioFixture.get().addTap(conf, tap(), bucket(), "tap-root");
  }
}
