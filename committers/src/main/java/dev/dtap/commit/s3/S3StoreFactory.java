package dev.dtap.commit.s3;

import dev.dtap.commit.CommitterKeys;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.MultipartStoreFactory;
import dev.dtap.fs.config.ConfigReader;
import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * Serves taps whose root is an {@code s3a://}, {@code s3://} or {@code s3n://} bucket, with an S3
 * client configured from the tap's own {@code fs.s3a.*} settings. Thread-safe.
 */
public final class S3StoreFactory implements MultipartStoreFactory {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(200);

  /** Creates the factory; found through {@link java.util.ServiceLoader}. */
  public S3StoreFactory() {}

  @Override
  public Optional<MultipartStore> create(TapContext tap) throws IOException {
    URI root = tap.config().root();
    String scheme = root.getScheme() == null ? "" : root.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("s3a") && !scheme.equals("s3") && !scheme.equals("s3n")) {
      return Optional.empty();
    }
    String bucket = root.getAuthority();
    if (bucket == null || bucket.isEmpty()) {
      throw new IOException("Tap '" + tap.config().name() + "' has no bucket in its URI " + root);
    }
    S3Settings settings = S3Settings.read(bucket, tap.backendConfiguration(), tap.config().name());
    ConfigReader site = new ConfigReader(tap.siteConfiguration());
    boolean conditional = site.getBoolean(CommitterKeys.CONDITIONAL_PUT.name(), true);
    boolean signedPayload = site.getBoolean(CommitterKeys.SIGNED_PAYLOAD.name(), true);
    PartTransport transport =
        site.getEnum(CommitterKeys.PART_TRANSPORT.name(), PartTransport.class, PartTransport.DIRECT);
    S3Client client = client(settings, signedPayload, List.of());
    UploadRequests uploads =
        transport == PartTransport.DIRECT && DirectUploads.serves(settings)
            ? new DirectUploads(settings, directTransport(settings.maxConnections()), signedPayload)
            : new SdkUploads(client, bucket, !signedPayload);
    return Optional.of(new S3MultipartStore(client, uploads, bucket, conditional));
  }

  /** {@code fs.dtap.committer.part.transport}. */
  enum PartTransport {
    /** {@link DirectUploads} for the upload requests to a store over plain http. */
    DIRECT,
    /** The SDK for every request. */
    SDK
  }

  /**
   * Connections for {@link DirectUploads}, as many as the SDK's pool may open
   * ({@code fs.s3a.connection.maximum}), with its timeouts.
   *
   * @param maxConnections connections in use at once
   * @return the transport
   */
  static DirectTransport directTransport(int maxConnections) {
    return new DirectTransport(
        new ConnectionPool(
            maxConnections,
            (int) CONNECT_TIMEOUT.toMillis(),
            (int) SOCKET_TIMEOUT.toMillis(),
            SOCKET_TIMEOUT.toMillis()),
        DirectTransport.CONTINUE_WAIT_MILLIS);
  }

  /**
   * An S3 client for a tap's settings.
   *
   * @param s the settings
   * @param signedPayload false: part uploads go unsigned (see {@link UnsignedPartSigning})
   * @return the client
   */
  static S3Client client(S3Settings s, boolean signedPayload) {
    return client(s, signedPayload, List.of());
  }

  /**
   * An S3 client for a tap's settings, with interceptors that see every request (for tests).
   *
   * @param s the settings
   * @param signedPayload false: part uploads go unsigned (see {@link UnsignedPartSigning})
   * @param interceptors added to the client's own
   * @return the client
   */
  static S3Client client(S3Settings s, boolean signedPayload, List<ExecutionInterceptor> interceptors) {
    S3ClientBuilder b =
        S3Client.builder()
            .httpClientBuilder(
                ApacheHttpClient.builder()
                    .maxConnections(s.maxConnections())
                    .connectionTimeout(CONNECT_TIMEOUT)
                    .socketTimeout(SOCKET_TIMEOUT))
            .overrideConfiguration(
                ClientOverrideConfiguration.builder()
                    .retryPolicy(RetryMode.STANDARD)
                    .executionInterceptors(interceptors)
                    .build())
            .credentialsProvider(s.credentials().provider())
            // a signed payload is one SHA-256 over the part, sent in the signed headers, instead of
            // a signature per 128 KiB chunk: the same protection for less work on both sides
            .serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(false).build())
            .forcePathStyle(s.pathStyle());
    if (s.endpoint() != null) {
      b.endpointOverride(s.endpoint());
    }
    if (!signedPayload) {
      b.putAuthScheme(new UnsignedPartSigning());
    }
    b.region(s.region() != null ? Region.of(s.region()) : regionOrDefault());
    return b.build();
  }

  private static Region regionOrDefault() {
    try {
      return new DefaultAwsRegionProviderChain().getRegion();
    } catch (RuntimeException e) {
      // as S3A does without a region: us-east-1 signs requests the global endpoint redirects
      return Region.US_EAST_1;
    }
  }
}
