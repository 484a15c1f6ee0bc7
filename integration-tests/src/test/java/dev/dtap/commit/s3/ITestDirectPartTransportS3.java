package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.store.NoSuchUploadException;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import dev.dtap.it.fixtures.MinioFixture;
import java.security.MessageDigest;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.utils.AttributeMap;

/**
 * Parts sent by the direct transport on MinIO, with and without payload signatures: a signed part
 * carries one SHA-256 of its bytes (not aws-chunked signatures), the store accepts it, its ETag is the part's MD5, the completed object holds the same bytes, the
 * connections are the transport's own and kept alive, and a part for an unknown upload comes back
 * as the store's NoSuchUpload.
 */
class ITestDirectPartTransportS3 {
  @ParameterizedTest(name = "signed payload: {0}")
  @ValueSource(booleans = {true, false})
  void partsGoDirectlyAndCompleteIntoTheSameBytes(boolean signed) throws Exception {
    MinioFixture minio = MinioFixture.get();
    String bucket = minio.createBucket("direct");
    Configuration conf = minio.configureS3a(new Configuration());
    S3Settings settings = S3Settings.read(bucket, conf, "direct");
    ConnectionPool pool = new ConnectionPool(8, 20_000, 200_000, 200_000);
    List<String> payloadHashes = new java.util.concurrent.CopyOnWriteArrayList<>();
    ExecutionInterceptor wire =
        new ExecutionInterceptor() {
          @Override
          public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if (UnsignedPartSigning.isPlainPartUpload(context.httpRequest())) {
              payloadHashes.add(context.httpRequest().firstMatchingHeader("x-amz-content-sha256").orElse("(none)"));
            }
          }
        };
    S3Client client = S3StoreFactory.client(settings, signed, new Transport(pool), List.of(wire));
    try (S3MultipartStore store = new S3MultipartStore(client, bucket, true, !signed)) {
      byte[] first = new byte[(5 << 20) + 17];
      byte[] second = new byte[Http1Connection.SEND_BLOCK + 1];
      new Random(1).nextBytes(first);
      new Random(2).nextBytes(second);
      String key = "out/direct-" + signed;
      String id = store.initiate(key);
      assertThat(pool.idleCount()).as("initiate went through the SDK's client").isZero();
      UploadedPart p1 = store.uploadPart(key, id, 1, PartData.of(List.of(first), first.length));
      UploadedPart p2 = store.uploadPart(key, id, 2, PartData.of(List.of(second), second.length));
      assertThat(pool.idleCount()).as("both parts on one kept-alive connection of the transport").isEqualTo(1);
      assertThat(payloadHashes)
          .as("signed: one SHA-256 of each whole part, not aws-chunked signatures")
          .containsExactlyElementsOf(
              signed
                  ? List.of(hex("SHA-256", first), hex("SHA-256", second))
                  : List.of("UNSIGNED-PAYLOAD", "UNSIGNED-PAYLOAD"));
      assertThat(p1.etag()).isEqualTo("\"" + md5(first) + "\"");
      assertThat(p2.etag()).isEqualTo("\"" + md5(second) + "\"");
      assertThat(store.listParts(key, id).orElseThrow()).containsExactly(p1, p2);
      store.complete(key, id, List.of(p1, p2));

      byte[] back = minio.client().getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
      byte[] expected = new byte[first.length + second.length];
      System.arraycopy(first, 0, expected, 0, first.length);
      System.arraycopy(second, 0, expected, first.length, second.length);
      assertThat(back).isEqualTo(expected);

      assertThatThrownBy(
              () -> store.uploadPart(key, "no-such-upload", 1, PartData.of(List.of(second), second.length)))
          .isInstanceOf(NoSuchUploadException.class)
          .hasMessageContaining("NoSuchUpload")
          .hasMessageContaining("s3a://" + bucket + "/" + key);
    }
  }

  /** The direct transport over a pool the test can look into. */
  private static final class Transport implements SdkHttpClient.Builder<Transport> {
    private final ConnectionPool pool;

    Transport(ConnectionPool pool) {
      this.pool = pool;
    }

    @Override
    public SdkHttpClient buildWithDefaults(AttributeMap defaults) {
      return new DirectPartTransport(
          ApacheHttpClient.builder().buildWithDefaults(defaults), pool, DirectPartTransport.CONTINUE_WAIT_MILLIS);
    }
  }

  private static String md5(byte[] data) throws Exception {
    return hex("MD5", data);
  }

  private static String hex(String algorithm, byte[] data) throws Exception {
    StringBuilder hex = new StringBuilder(64);
    for (byte b : MessageDigest.getInstance(algorithm).digest(data)) {
      hex.append(String.format("%02x", b));
    }
    return hex.toString();
  }
}
