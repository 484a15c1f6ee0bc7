package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** dtap's SigV4 against the example AWS publishes for S3 ("GET Object" with a Range header). */
class TestSigV4 {
  private static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  private static final Instant WHEN = Instant.parse("2013-05-24T00:00:00Z");

  private static DirectRequest example() {
    return new DirectRequest("GET", "examplebucket.s3.amazonaws.com", 80, "/test.txt").header("Range", "bytes=0-9");
  }

  @Test
  void signsAwsPublishedExample() {
    SigV4 signer =
        new SigV4(
            "us-east-1",
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")));
    DirectRequest r = example().header("User-Agent", "dtap-committer").header("Expect", "100-continue");
    signer.sign(r, EMPTY_SHA256, WHEN);
    assertThat(r.header("x-amz-date")).isEqualTo("20130524T000000Z");
    assertThat(r.header("authorization"))
        .isEqualTo(
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                + " SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
                + " Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  }

  @Test
  void aSessionTokenIsSentAndSigned() {
    SigV4 signer =
        new SigV4(
            "us-east-1",
            StaticCredentialsProvider.create(AwsSessionCredentials.create("AKID", "secret", "token/1")));
    DirectRequest r = example();
    signer.sign(r, EMPTY_SHA256, WHEN);
    assertThat(r.header("x-amz-security-token")).isEqualTo("token/1");
    assertThat(r.header("authorization")).contains("SignedHeaders=host;range;x-amz-content-sha256;x-amz-date;x-amz-security-token,");
  }

  @Test
  void anonymousCredentialsSignNothing() {
    DirectRequest r = example();
    new SigV4("us-east-1", AnonymousCredentialsProvider.create()).sign(r, EMPTY_SHA256, WHEN);
    assertThat(r.header("authorization")).isNull();
    assertThat(r.header("x-amz-content-sha256")).isEqualTo(EMPTY_SHA256);
  }

  @Test
  void pathsAndQueriesAreEncodedAsS3SignsThem() {
    assertThat(DirectRequest.encode("dir/a b+c~ü%.txt", true)).isEqualTo("dir/a%20b%2Bc~%C3%BC%25.txt");
    assertThat(DirectRequest.encode("u/1+=", false)).isEqualTo("u%2F1%2B%3D");
    DirectRequest r = new DirectRequest("POST", "h", 9000, "/b/k").query("uploads", "");
    assertThat(r.canonicalQuery()).isEqualTo("uploads=");
    assertThat(r.target()).isEqualTo("/b/k?uploads=");
    assertThat(r.header("host")).isEqualTo("h:9000");
    r.query("uploadId", "x y").query("partNumber", "2");
    assertThat(r.canonicalQuery()).isEqualTo("partNumber=2&uploadId=x%20y&uploads=");
  }
}
