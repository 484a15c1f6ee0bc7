package dev.dtap.commit.s3;

import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.scheme.AwsV4AuthScheme;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.scheme.AuthScheme;
import software.amazon.awssdk.http.auth.spi.signer.AsyncSignRequest;
import software.amazon.awssdk.http.auth.spi.signer.AsyncSignedRequest;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.IdentityProvider;
import software.amazon.awssdk.identity.spi.IdentityProviders;

/**
 * SigV4 for an S3 client whose part uploads carry {@code UNSIGNED-PAYLOAD} even over plain {@code
 * http} ({@code fs.dtap.committer.signed-payload=false}).
 *
 * <p>The SDK's signer always signs the payload of an {@code http} request: SHA-256 of every byte,
 * which the store then verifies again. For a part upload this signer lets the SDK's own signer sign
 * the request as if it went over {@code https}, where the SDK sends unsigned payloads, and then
 * sends it over the original scheme and port. The request line and headers stay signed, including
 * the part's {@code x-amz-checksum-crc32c}, which the store verifies: a corrupted part is refused,
 * but a party able to rewrite traffic on the network could substitute other bytes of the same
 * length and CRC32C (a CRC is easily matched). Every other request is signed exactly as the SDK
 * signs it.
 *
 * <p>Thread-safe and stateless.
 */
final class UnsignedPartSigning implements AuthScheme<AwsCredentialsIdentity> {
  private static final int HTTP_PORT = 80;
  private static final int HTTPS_PORT = 443;

  private final AwsV4HttpSigner sigv4 = AwsV4HttpSigner.create();
  private final HttpSigner<AwsCredentialsIdentity> signer = new PartSigner();

  @Override
  public String schemeId() {
    return AwsV4AuthScheme.SCHEME_ID;
  }

  @Override
  public IdentityProvider<AwsCredentialsIdentity> identityProvider(IdentityProviders providers) {
    return providers.identityProvider(AwsCredentialsIdentity.class);
  }

  @Override
  public HttpSigner<AwsCredentialsIdentity> signer() {
    return signer;
  }

  /**
   * Whether a request uploads a part over plain {@code http}.
   *
   * @param request the request
   * @return true for {@code PUT ?partNumber=&uploadId=} without TLS
   */
  static boolean isPlainPartUpload(SdkHttpRequest request) {
    return request.method() == SdkHttpMethod.PUT
        && !"https".equalsIgnoreCase(request.protocol())
        && request.firstMatchingRawQueryParameter("partNumber").isPresent()
        && request.firstMatchingRawQueryParameter("uploadId").isPresent();
  }

  private final class PartSigner implements HttpSigner<AwsCredentialsIdentity> {
    @Override
    public SignedRequest sign(SignRequest<? extends AwsCredentialsIdentity> request) {
      SdkHttpRequest http = request.request();
      if (!isPlainPartUpload(http)) {
        return sigv4.sign(request);
      }
      // Host is signed: on http's standard port it carries no port, and neither does https's
      int port = http.port();
      SdkHttpRequest asTls =
          http.toBuilder().protocol("https").port(port == HTTP_PORT ? HTTPS_PORT : port).build();
      SignedRequest signed =
          sigv4.sign(
              request.copy(
                  r ->
                      r.request(asTls)
                          .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                          .putProperty(AwsV4HttpSigner.CHUNK_ENCODING_ENABLED, false)));
      SdkHttpRequest sent = signed.request().toBuilder().protocol(http.protocol()).port(port).build();
      return signed.copy(r -> r.request(sent));
    }

    @Override
    public CompletableFuture<AsyncSignedRequest> signAsync(
        AsyncSignRequest<? extends AwsCredentialsIdentity> request) {
      // the committers' store uses the synchronous client only
      return sigv4.signAsync(request);
    }
  }
}
