package dev.dtap.commit.s3;

import dev.dtap.commit.store.PartData;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.retries.api.BackoffStrategy;

/**
 * Sends one S3 request over the JDK's HTTP client, signed by the AWS SDK's SigV4 signer with the
 * tap's S3A credentials (resolved for every request, so rotated and session credentials are used as
 * S3A uses them). Retries what the SDK's standard mode retries (failed exchanges, 5xx, throttling),
 * up to S3A's {@code fs.s3a.attempts.maximum} attempts with the SDK's jittered exponential backoff;
 * corrects for clock skew from the store's {@code Date} when it answers {@code
 * RequestTimeTooSkewed}, as the SDK does. At most {@code fs.s3a.connection.maximum} requests are in
 * flight at once.
 *
 * <p>Over plain http a payload is signed (the signer hashes it) unless the caller asks for an
 * unsigned one; over https it is sent as {@code UNSIGNED-PAYLOAD}, as the SDK sends S3 requests.
 * Thread-safe.
 */
final class SignedHttp {
  private static final BackoffStrategy BACKOFF =
      BackoffStrategy.exponentialDelay(Duration.ofMillis(100), Duration.ofSeconds(20));
  private static final List<String> NOT_FORWARDED =
      List.of("host", "content-length", "expect", "connection");

  private final HttpPlan plan;
  private final AwsCredentialsProvider credentials;
  private final HttpClient client;
  private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();
  private final Semaphore inFlight;
  private final AtomicLong skewMillis = new AtomicLong();
  private final Clock clock;

  SignedHttp(HttpPlan plan, AwsCredentialsProvider credentials) {
    this(plan, credentials, Clock.systemUTC());
  }

  /**
   * @param plan where requests go
   * @param credentials signs them
   * @param clock this host's clock, whose skew from the store's is learnt and corrected
   */
  SignedHttp(HttpPlan plan, AwsCredentialsProvider credentials, Clock clock) {
    this.plan = plan;
    this.clock = clock;
    this.credentials = credentials;
    HttpClient.Builder b =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(plan.connectTimeout())
            .followRedirects(HttpClient.Redirect.NEVER);
    plan.proxy().ifPresent(b::proxy);
    this.client = b.build();
    this.inFlight = new Semaphore(plan.maxConnections());
  }

  /** What a request carries. */
  static final class Body {
    final byte[] bytes;
    final PartData part;
    final boolean signPayload;

    private Body(byte[] bytes, PartData part, boolean signPayload) {
      this.bytes = bytes;
      this.part = part;
      this.signPayload = signPayload;
    }

    static Body none() {
      return new Body(new byte[0], null, true);
    }

    static Body of(byte[] bytes) {
      return new Body(bytes, null, true);
    }

    /**
     * @param part the bytes
     * @param signPayload whether the payload's SHA-256 is signed over plain http; false sends it as
     *     {@code UNSIGNED-PAYLOAD}, its checksum header being the caller's
     */
    static Body of(PartData part, boolean signPayload) {
      return new Body(null, part, signPayload);
    }

    long length() {
      return part != null ? part.length() : bytes.length;
    }

    ContentStreamProvider content() {
      if (part == null) {
        return ContentStreamProvider.fromByteArrayUnsafe(bytes);
      }
      return () -> {
        try {
          return part.open();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      };
    }

    HttpRequest.BodyPublisher publisher() {
      if (part == null) {
        return bytes.length == 0
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(bytes);
      }
      List<java.nio.ByteBuffer> buffers = part.buffers();
      java.util.concurrent.Flow.Publisher<java.nio.ByteBuffer> unsized =
          buffers != null
              ? new BuffersPublisher(buffers)
              : HttpRequest.BodyPublishers.ofInputStream(
                  () -> {
                    try {
                      return part.open();
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  });
      // a known length: S3 refuses chunked transfer coding
      return HttpRequest.BodyPublishers.fromPublisher(unsized, part.length());
    }
  }

  /** The store's answer. */
  static final class Answer {
    final int status;
    final HttpHeaders headers;
    final byte[] body;

    Answer(int status, HttpHeaders headers, byte[] body) {
      this.status = status;
      this.headers = headers;
      this.body = body;
    }

    String header(String name) {
      return headers.firstValue(name).orElse(null);
    }

    boolean ok() {
      return status / 100 == 2;
    }
  }

  /**
   * Sends a request, retrying as described above, and returns the last answer.
   *
   * @param method the method
   * @param uri the object's URI with the query
   * @param headers the request's headers (from S3A's request, see {@link RequestHeaders})
   * @param body the body
   * @param timeout the request's own timeout (S3A's part upload timeout), or null for S3A's API
   *     call timeout
   * @param what the operation and dtap path, for messages
   * @return the answer: a success, or an error the store gave on the last attempt
   * @throws IOException if no answer came on the last attempt
   */
  Answer send(
      SdkHttpMethod method,
      URI uri,
      Map<String, List<String>> headers,
      Body body,
      Duration timeout,
      String what)
      throws IOException {
    int attempts = plan.attempts();
    for (int attempt = 1; ; attempt++) {
      Answer a;
      try {
        a = once(method, uri, headers, body, timeout, what);
      } catch (InterruptedIOException e) {
        throw e;
      } catch (IOException e) {
        if (attempt >= attempts) {
          IOException last = S3Errors.unanswered(what, "after " + attempt + " attempts", e);
          throw new IOException(last.getMessage(), e);
        }
        pause(attempt, what);
        continue;
      }
      if (a.ok() || attempt >= attempts || !retryable(a)) {
        return a;
      }
      pause(attempt, what);
    }
  }

  private Answer once(
      SdkHttpMethod method,
      URI uri,
      Map<String, List<String>> headers,
      Body body,
      Duration timeout,
      String what)
      throws IOException {
    SdkHttpRequest.Builder unsigned = SdkHttpRequest.builder().method(method).uri(uri);
    headers.forEach(unsigned::putHeader);
    boolean signPayload = body.signPayload && !plan.https();
    Clock signing = Clock.offset(clock, Duration.ofMillis(skewMillis.get()));
    SignedRequest signed =
        signer.sign(
            r -> {
              r.identity(credentials.resolveCredentials())
                  .request(unsigned.build())
                  .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, plan.signingName())
                  .putProperty(AwsV4HttpSigner.REGION_NAME, plan.signingRegion())
                  .putProperty(AwsV4FamilyHttpSigner.DOUBLE_URL_ENCODE, false)
                  .putProperty(AwsV4FamilyHttpSigner.NORMALIZE_PATH, false)
                  .putProperty(AwsV4FamilyHttpSigner.CHUNK_ENCODING_ENABLED, false)
                  .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, signPayload)
                  .putProperty(HttpSigner.SIGNING_CLOCK, signing);
              // an unsigned payload is not handed to the signer: it would sign it anyway over http
              if (signPayload) {
                r.payload(body.content());
              }
            });
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).method(method.name(), body.publisher());
    signed
        .request()
        .headers()
        .forEach(
            (name, values) -> {
              if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                for (String v : values) {
                  b.header(name, v);
                }
              }
            });
    b.header("User-Agent", plan.userAgent());
    plan.proxyAuthorization().ifPresent(v -> b.header("Proxy-Authorization", v));
    Duration t = timeout != null ? timeout : plan.requestTimeout().orElse(null);
    if (t != null && !t.isZero()) {
      b.timeout(t);
    }
    try {
      inFlight.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw interrupted(what, e);
    }
    try {
      HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
      Answer a = new Answer(r.statusCode(), r.headers(), r.body() == null ? new byte[0] : r.body());
      noteSkew(a);
      return a;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw interrupted(what, e);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } finally {
      inFlight.release();
    }
  }

  /** The SDK's standard mode: 5xx, 429 and throttling codes, and skew once it is corrected. */
  private static boolean retryable(Answer a) {
    if (a.status >= 500 || a.status == 429) {
      return true;
    }
    String code = S3Errors.code(a.body);
    return code.equals("SlowDown")
        || code.equals("Throttling")
        || code.equals("ThrottlingException")
        || code.equals("RequestTimeout")
        || code.equals("RequestTimeTooSkewed");
  }

  /** Learns the store's clock from an answer that says ours is off. */
  private void noteSkew(Answer a) {
    if (a.status != 403 || !S3Errors.code(a.body).equals("RequestTimeTooSkewed")) {
      return;
    }
    String date = a.header("Date");
    if (date == null) {
      return;
    }
    try {
      long server =
          ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME)
              .toInstant()
              .toEpochMilli();
      skewMillis.set(server - clock.millis());
    } catch (DateTimeParseException e) {
      // no usable clock: the retry signs with ours again
    }
  }

  private static void pause(int attempt, String what) throws InterruptedIOException {
    try {
      Thread.sleep(BACKOFF.computeDelay(attempt).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw interrupted(what, e);
    }
  }

  private static InterruptedIOException interrupted(String what, Throwable cause) {
    InterruptedIOException x = new InterruptedIOException(what + ": interrupted");
    x.initCause(cause);
    return x;
  }

  /**
   * @return how far the store's clock is ahead of ours, as last learnt (for tests)
   */
  long skewMillis() {
    return skewMillis.get();
  }
}
