package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * The headers dtap's HTTP requests carry, side by side with the headers the AWS SDK's own
 * marshaller gives the same S3A-built request: for each S3A setting that shapes an object, they
 * must agree on every header but those of the SDK's pipeline (signature, date, payload hash,
 * invocation ids, user agent, framing).
 */
class TestRequestHeaders {
  /** Headers the SDK's pipeline adds on its own: signing, retries, framing. */
  private static final List<String> PIPELINE =
      List.of(
          "authorization",
          "x-amz-date",
          "x-amz-content-sha256",
          "amz-sdk-invocation-id",
          "amz-sdk-request",
          "user-agent",
          "content-length",
          "host",
          "expect",
          "x-amz-decoded-content-length",
          "transfer-encoding",
          "x-amz-trailer",
          "content-md5");

  static Stream<Arguments> settings() {
    String ssec =
        Base64.getEncoder()
            .encodeToString("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
    return Stream.of(
        Arguments.of("plain", Map.of(), Map.of()),
        Arguments.of(
            "SSE-S3",
            Map.of("fs.s3a.encryption.algorithm", "AES256"),
            Map.of("x-amz-server-side-encryption", "AES256")),
        Arguments.of(
            "SSE-KMS",
            Map.of(
                "fs.s3a.encryption.algorithm",
                "SSE-KMS",
                "fs.s3a.encryption.key",
                "arn:aws:kms:us-east-1:1:key/k"),
            Map.of(
                "x-amz-server-side-encryption",
                "aws:kms",
                "x-amz-server-side-encryption-aws-kms-key-id",
                "arn:aws:kms:us-east-1:1:key/k")),
        Arguments.of(
            "SSE-C",
            Map.of("fs.s3a.encryption.algorithm", "SSE-C", "fs.s3a.encryption.key", ssec),
            Map.of("x-amz-server-side-encryption-customer-algorithm", "AES256")),
        Arguments.of(
            "per-bucket SSE-S3",
            Map.of("fs.s3a.bucket.bucket.encryption.algorithm", "AES256"),
            Map.of("x-amz-server-side-encryption", "AES256")),
        Arguments.of(
            "canned ACL",
            Map.of("fs.s3a.acl.default", "BucketOwnerFullControl"),
            Map.of("x-amz-acl", "bucket-owner-full-control")),
        Arguments.of(
            "storage class",
            Map.of("fs.s3a.create.storage.class", "reduced_redundancy"),
            Map.of("x-amz-storage-class", "REDUCED_REDUNDANCY")),
        Arguments.of(
            "requester pays",
            Map.of("fs.s3a.requester.pays.enabled", "true"),
            Map.of("x-amz-request-payer", "requester")),
        Arguments.of(
            "content encoding",
            Map.of("fs.s3a.object.content.encoding", "gzip"),
            Map.of("content-encoding", "gzip")),
        Arguments.of("checksum", Map.of("fs.s3a.create.checksum.algorithm", "CRC32C"), Map.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("settings")
  void headersAgreeWithTheSdksMarshaller(
      String name, Map<String, String> s3a, Map<String, String> initiateMust) throws Exception {
    try (FileSystem fs = OfflineS3a.s3a(OfflineS3a.conf("https://127.0.0.1:9", s3a));
        S3aV2Access access = S3aV2Access.bind(fs)) {
      Map<String, List<String>> client =
          access.client().serviceClientConfiguration().overrideConfiguration().headers();
      Capture capture = new Capture();
      try (S3Client sdk = sdk(capture, client)) {
        CreateMultipartUploadRequest initiate = access.initiate("dir/a b.txt").build();
        sdk.createMultipartUpload(initiate);
        Map<String, List<String>> ours =
            HttpUploads.headers(initiate, client, HttpUploads.INITIATE_CONTENT_TYPE);
        assertAgree(name + " initiate", ours, capture.last());
        initiateMust.forEach(
            (k, v) ->
                assertThat(ours).as(name + ": initiate carries " + k).containsEntry(k, List.of(v)));

        UploadPartRequest part = access.part("dir/a b.txt", "u-1", 1, 3).build();
        sdk.uploadPart(
            part,
            RequestBody.fromContentProvider(
                () -> new ByteArrayInputStream(new byte[3]), 3, HttpUploads.BODY_CONTENT_TYPE));
        assertAgree(
            name + " part",
            HttpUploads.headers(part, client, HttpUploads.BODY_CONTENT_TYPE),
            capture.last());

        CompleteMultipartUploadRequest complete =
            access.complete("dir/a b.txt", "u-1", ClientUploads.completedParts(List.of())).build();
        sdk.completeMultipartUpload(complete);
        assertAgree(
            name + " complete",
            HttpUploads.headers(complete, client, "application/xml"),
            capture.last());

        PutObjectRequest put = access.put("dir/rec", 3).build();
        // S3A's own puts give the SDK a body of this type (S3ABlockOutputStream, CommitOperations)
        sdk.putObject(
            put,
            RequestBody.fromContentProvider(
                () -> new ByteArrayInputStream(new byte[3]), 3, HttpUploads.BODY_CONTENT_TYPE));
        assertAgree(
            name + " put",
            HttpUploads.headers(put, client, HttpUploads.BODY_CONTENT_TYPE),
            capture.last());
      }
    }
  }

  private static void assertAgree(String what, Map<String, List<String>> ours, SdkHttpRequest sdk) {
    Map<String, List<String>> theirs = new TreeMap<>();
    sdk.headers()
        .forEach(
            (k, v) -> {
              String n = k.toLowerCase(Locale.ROOT);
              // a checksum's value is computed from the body, by the SDK there and by dtap here
              if (!PIPELINE.contains(n)
                  && !n.matches("x-amz-checksum-(crc32|crc32c|crc64nvme|sha1|sha256)")) {
                theirs.put(n, v);
              }
            });
    assertThat(ours).as(what).isEqualTo(theirs);
  }

  private static S3Client sdk(Capture capture, Map<String, List<String>> clientHeaders) {
    return S3Client.builder()
        .httpClient(capture)
        .region(Region.US_EAST_1)
        .endpointOverride(URI.create("https://127.0.0.1:9"))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("AKID", "secret")))
        .serviceConfiguration(
            S3Configuration.builder()
                .checksumValidationEnabled(false)
                .chunkedEncodingEnabled(false)
                .build())
        .overrideConfiguration(o -> o.headers(clientHeaders))
        .build();
  }

  /** An HTTP client that keeps every request the SDK sends and answers each with a success. */
  static final class Capture implements SdkHttpClient {
    final List<SdkHttpRequest> requests = new ArrayList<>();

    SdkHttpRequest last() {
      return requests.get(requests.size() - 1);
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
      requests.add(request.httpRequest());
      String body =
          request.httpRequest().rawQueryParameters().containsKey("uploads")
              ? "<InitiateMultipartUploadResult><UploadId>u-1</UploadId>"
                  + "</InitiateMultipartUploadResult>"
              : request.httpRequest().rawQueryParameters().containsKey("uploadId")
                      && !request.httpRequest().rawQueryParameters().containsKey("partNumber")
                  ? "<CompleteMultipartUploadResult><ETag>\"e-1\"</ETag>"
                      + "</CompleteMultipartUploadResult>"
                  : "";
      return new ExecutableHttpRequest() {
        @Override
        public HttpExecuteResponse call() {
          return HttpExecuteResponse.builder()
              .response(
                  SdkHttpResponse.builder().statusCode(200).putHeader("ETag", "\"e-1\"").build())
              .responseBody(
                  AbortableInputStream.create(
                      new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))))
              .build();
        }

        @Override
        public void abort() {}
      };
    }

    @Override
    public void close() {}
  }
}
