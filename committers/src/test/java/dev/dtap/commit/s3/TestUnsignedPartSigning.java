package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/** Part uploads over plain http go with unsigned payloads; everything else is signed as before. */
class TestUnsignedPartSigning {
  private static final AwsCredentialsIdentity KEYS =
      AwsCredentialsIdentity.create("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
  private static final byte[] BODY = "part bytes".getBytes(StandardCharsets.UTF_8);

  private static SdkHttpRequest request(String uri, boolean part) {
    SdkHttpFullRequest.Builder b =
        SdkHttpFullRequest.builder().method(SdkHttpMethod.PUT).uri(URI.create(uri));
    if (part) {
      b.putRawQueryParameter("partNumber", "3").putRawQueryParameter("uploadId", "u-1");
    }
    return b.putHeader("Content-Length", Integer.toString(BODY.length))
        .putHeader("x-amz-checksum-crc32c", "yZRlqg==")
        .build();
  }

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-23T10:00:00Z"), ZoneOffset.UTC);

  private static SignedRequest sign(SdkHttpRequest request) {
    return sign(new UnsignedPartSigning().signer(), request, true);
  }

  private static SignedRequest sign(
      HttpSigner<AwsCredentialsIdentity> signer, SdkHttpRequest request, boolean payloadSigning) {
    ContentStreamProvider body = ContentStreamProvider.fromByteArray(BODY);
    return signer
        .sign(
            r ->
                r.identity(KEYS)
                    .request(request)
                    .payload(body)
                    .putProperty(HttpSigner.SIGNING_CLOCK, CLOCK)
                    .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, payloadSigning)
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                    .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                    .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                    .putProperty(AwsV4HttpSigner.CHUNK_ENCODING_ENABLED, true));
  }

  @Test
  void aPartOverPlainHttpGoesUnsignedOnItsOwnSchemeAndPort() {
    SignedRequest signed = sign(request("http://127.0.0.1:9000/bucket/key", true));
    SdkHttpRequest sent = signed.request();
    assertThat(sent.protocol()).isEqualTo("http");
    assertThat(sent.port()).isEqualTo(9000);
    assertThat(sent.firstMatchingHeader("x-amz-content-sha256")).hasValue("UNSIGNED-PAYLOAD");
    assertThat(sent.firstMatchingHeader("Host")).hasValue("127.0.0.1:9000");
    assertThat(sent.firstMatchingHeader("Authorization").orElseThrow())
        .startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
        .contains("x-amz-checksum-crc32c") // the checksum header is signed
        .doesNotContain("wJalrXUtnFEMI");
    assertThat(sent.firstMatchingHeader("Content-Encoding")).as("not aws-chunked").isEmpty();
  }

  @Test
  void onHttpsStandardPortTheHostHeaderCarriesNoPortAsOnHttps() {
    SdkHttpRequest sent = sign(request("http://store.example.com/bucket/key", true)).request();
    assertThat(sent.port()).isEqualTo(80);
    assertThat(sent.protocol()).isEqualTo("http");
    assertThat(sent.firstMatchingHeader("Host")).hasValue("store.example.com");
    assertThat(sent.firstMatchingHeader("x-amz-content-sha256")).hasValue("UNSIGNED-PAYLOAD");
  }

  @Test
  void theSignatureIsTheSdksOwnForTheSameRequestOverTls() {
    SdkHttpRequest sent = sign(request("http://127.0.0.1:9000/bucket/key", true)).request();
    SdkHttpRequest overTls =
        sign(AwsV4HttpSigner.create(), request("https://127.0.0.1:9000/bucket/key", true), false)
            .request();
    assertThat(overTls.firstMatchingHeader("x-amz-content-sha256")).hasValue("UNSIGNED-PAYLOAD");
    assertThat(sent.firstMatchingHeader("Authorization"))
        .isEqualTo(overTls.firstMatchingHeader("Authorization"));
  }

  @Test
  void everyOtherRequestIsSignedAsTheSdkSignsIt() {
    SdkHttpRequest sent = sign(request("http://127.0.0.1:9000/bucket/record", false)).request();
    assertThat(sent.firstMatchingHeader("x-amz-content-sha256").orElseThrow())
        .isNotEqualTo("UNSIGNED-PAYLOAD");
    assertThat(UnsignedPartSigning.isPlainPartUpload(request("https://s3.example.com/b/k", true)))
        .as("over TLS the SDK never signs payloads: nothing to change")
        .isFalse();
    assertThat(UnsignedPartSigning.isPlainPartUpload(request("http://127.0.0.1:9000/b/k", true)))
        .isTrue();
  }
}
