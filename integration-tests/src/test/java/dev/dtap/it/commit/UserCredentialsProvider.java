package dev.dtap.it.commit;

import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;

/**
 * A credential provider class of the user's own, as S3A loads one from {@code
 * fs.s3a.aws.credentials.provider}: it reads its keys from two keys of its own. It is both an SDK
 * v1 and an SDK v2 provider, so one class serves S3A on every Hadoop line (3.3 takes v1, 3.4 and
 * later v2).
 */
public final class UserCredentialsProvider
    implements com.amazonaws.auth.AWSCredentialsProvider,
        software.amazon.awssdk.auth.credentials.AwsCredentialsProvider {
  static final String ACCESS = "dtap.test.provider.access";
  static final String SECRET = "dtap.test.provider.secret";

  /** How many times any instance gave out credentials. */
  static final AtomicInteger CALLS = new AtomicInteger();

  private final String access;
  private final String secret;

  /**
   * The constructor S3A calls.
   *
   * @param bucket the bucket's URI
   * @param conf the bucket's configuration
   */
  public UserCredentialsProvider(URI bucket, Configuration conf) {
    this.access = conf.getTrimmed(ACCESS);
    this.secret = conf.getTrimmed(SECRET);
    if (access == null || secret == null) {
      throw new IllegalArgumentException(
          "UserCredentialsProvider needs " + ACCESS + " and " + SECRET);
    }
  }

  @Override
  public software.amazon.awssdk.auth.credentials.AwsCredentials resolveCredentials() {
    CALLS.incrementAndGet();
    return software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(access, secret);
  }

  @Override
  public com.amazonaws.auth.AWSCredentials getCredentials() {
    CALLS.incrementAndGet();
    return new com.amazonaws.auth.BasicAWSCredentials(access, secret);
  }

  @Override
  public void refresh() {}

  @Override
  public String toString() {
    return "UserCredentialsProvider";
  }
}
