package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import dev.dtap.it.fixtures.MinioFixture;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Unsigned part payloads on MinIO: what goes up comes back byte for byte, and the CRC32C that
 * replaces the payload signature is really checked by the store, so a part whose bytes do not
 * match it is refused.
 */
class ITestUnsignedPartUploadS3 {
  private static MinioFixture minio;
  private static String bucket;
  private static S3Client client;
  private static S3MultipartStore store;
  /**
   * The payload hash header of every part upload and of every other request with a body (requests
   * without one go unsigned from the SDK itself), as sent.
   */
  private static final Map<String, List<String>> SENT = new ConcurrentHashMap<>();
  private static final ExecutionInterceptor WIRE =
      new ExecutionInterceptor() {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
          SdkHttpRequest r = context.httpRequest();
          if (r.method() != SdkHttpMethod.PUT && r.method() != SdkHttpMethod.POST) {
            return;
          }
          String kind = UnsignedPartSigning.isPlainPartUpload(r) ? "part" : "other";
          SENT.computeIfAbsent(kind, k -> new CopyOnWriteArrayList<>())
              .add(r.firstMatchingHeader("x-amz-content-sha256").orElse("(none)"));
        }
      };

  @BeforeAll
  static void setUp() throws Exception {
    minio = MinioFixture.get();
    bucket = minio.createBucket("unsigned");
    Configuration conf = minio.configureS3a(new Configuration());
    // the SDK's path with its own signer (fs.dtap.committer.part.transport=sdk); DirectUploads is
    // tested in ITestDirectUploadsS3
    client = S3StoreFactory.client(S3Settings.read(bucket, conf, "unsigned"), false, List.of(WIRE));
    store = new S3MultipartStore(client, bucket, true, true);
  }

  @AfterAll
  static void tearDown() {
    if (store != null) {
      store.close();
    }
  }

  @Test
  void partsUploadedUnsignedCompleteIntoTheSameBytes() throws Exception {
    byte[] first = new byte[5 << 20];
    byte[] second = new byte[123_457];
    new Random(1).nextBytes(first);
    new Random(2).nextBytes(second);
    String id = store.initiate("out/two-parts");
    UploadedPart p1 = store.uploadPart("out/two-parts", id, 1, PartData.of(List.of(first), first.length));
    UploadedPart p2 = store.uploadPart("out/two-parts", id, 2, PartData.of(List.of(second), second.length));
    assertThat(p1.crc32c()).isEqualTo(S3MultipartStore.crc32c(PartData.of(List.of(first), first.length)));
    assertThat(store.listParts("out/two-parts", id).orElseThrow())
        .as("the store keeps each part's checksum")
        .containsExactly(p1, p2);
    assertThat(SENT.get("part")).as("parts went without a payload signature").containsOnly("UNSIGNED-PAYLOAD");
    store.complete("out/two-parts", id, List.of(p1, p2));
    assertThat(SENT.get("other"))
        .as("initiate and complete kept their payload hash")
        .hasSizeGreaterThanOrEqualTo(2)
        .doesNotContain("UNSIGNED-PAYLOAD");

    byte[] back = minio.client().getObjectAsBytes(b -> b.bucket(bucket).key("out/two-parts")).asByteArray();
    byte[] expected = new byte[first.length + second.length];
    System.arraycopy(first, 0, expected, 0, first.length);
    System.arraycopy(second, 0, expected, first.length, second.length);
    assertThat(back).isEqualTo(expected);
  }

  @Test
  void aPartWhoseBytesDoNotMatchItsChecksumIsRefused() throws Exception {
    byte[] data = new byte[64 << 10];
    new Random(3).nextBytes(data);
    String id = store.initiate("out/corrupt");
    String checksum = S3MultipartStore.crc32c(PartData.of(List.of(data), data.length));
    data[1000] ^= 1; // one bit flipped on the way
    assertThatThrownBy(
            () ->
                client.uploadPart(
                    b -> b.bucket(bucket).key("out/corrupt").uploadId(id).partNumber(1).checksumCRC32C(checksum),
                    RequestBody.fromBytes(data)))
        .isInstanceOf(S3Exception.class)
        .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(400));
    assertThat(store.listParts("out/corrupt", id).orElseThrow()).as("nothing was stored").isEmpty();
    store.abort("out/corrupt", id);
  }
}
