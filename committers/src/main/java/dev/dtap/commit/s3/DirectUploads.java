package dev.dtap.commit.s3;

import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * {@link UploadRequests} built, signed ({@link SigV4}) and sent ({@link DirectTransport}) by dtap
 * itself, for a store reached over plain {@code http} ({@code fs.dtap.committer.part.transport=direct},
 * the default).
 *
 * <p>Why: these four requests are made for every file, and through the SDK each costs about a
 * millisecond of processor time in its pipeline of interceptors, marshallers and rules, plus the
 * JIT compiling that pipeline in every short-lived task JVM; a signed part was also read twice
 * through streams, to hash and to send. Here a request is a few headers, a part is hashed and sent
 * from its own arrays, and the answer is read with a small XML reader.
 *
 * <p>Failures are classified as the SDK's are ({@link S3Errors}); a failed exchange, a 5xx answer
 * or throttling is retried up to {@link #ATTEMPTS} times in all with jittered exponential backoff,
 * as the SDK's standard retry mode does.
 *
 * <p>Thread-safe.
 */
final class DirectUploads implements UploadRequests {
  static final int ATTEMPTS = 3;
  private static final long BASE_DELAY_MILLIS = 100;
  private static final long THROTTLED_BASE_DELAY_MILLIS = 500;
  private static final long MAX_DELAY_MILLIS = 20_000;
  private static final String EMPTY_SHA256 = SigV4.sha256Hex(new byte[0]);
  private static final String OCTETS = "application/octet-stream";
  private static final Set<String> RETRYABLE_CODES =
      Set.of("InternalError", "SlowDown", "ServiceUnavailable", "RequestTimeout", "Throttling",
          "ThrottlingException", "RequestThrottled", "TooManyRequestsException");
  private static final Set<String> THROTTLING_CODES =
      Set.of("SlowDown", "Throttling", "ThrottlingException", "RequestThrottled", "TooManyRequestsException");

  private final DirectTransport transport;
  private final SigV4 signer;
  private final String bucket;
  private final String host;
  private final int port;
  private final String basePath;
  private final boolean pathStyle;
  private final boolean signedParts;

  /**
   * @param s the tap's settings, with an http endpoint (see {@link #serves})
   * @param transport the connections; owned from now on
   * @param signedParts false: parts carry {@code UNSIGNED-PAYLOAD} and a CRC32C the store verifies
   */
  DirectUploads(S3Settings s, DirectTransport transport, boolean signedParts) {
    URI e = s.endpoint();
    this.transport = transport;
    this.signer = new SigV4(s.region(), s.credentials().provider());
    this.bucket = s.bucket();
    this.host = e.getHost();
    this.port = e.getPort() < 0 ? 80 : e.getPort();
    String p = e.getRawPath() == null ? "" : e.getRawPath();
    this.basePath = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    this.pathStyle = s.pathStyle();
    this.signedParts = signedParts;
  }

  /**
   * @param s a tap's settings
   * @return whether its store is reached over plain http, where these requests go directly
   */
  static boolean serves(S3Settings s) {
    return s.endpoint() != null && "http".equalsIgnoreCase(s.endpoint().getScheme());
  }

  private String where(String key) {
    return S3Errors.where(bucket, key);
  }

  private DirectRequest request(String method, String key) {
    String k = DirectRequest.encode(key, true);
    return pathStyle
        ? new DirectRequest(method, host, port, basePath + "/" + DirectRequest.encode(bucket, false) + "/" + k)
        : new DirectRequest(method, bucket + "." + host, port, basePath + "/" + k);
  }

  @Override
  public String initiate(String key) throws IOException {
    String op = "initiate upload to";
    Supplier<DirectRequest> r =
        () -> {
          DirectRequest q = request("POST", key).query("uploads", "").header("content-type", OCTETS);
          return signedParts ? q : q.header("x-amz-checksum-algorithm", "CRC32C");
        };
    S3Xml answer = S3Xml.parse(call(op, key, r, null, EMPTY_SHA256, false).body(), op + " " + where(key));
    return answer.child("UploadId").filter(id -> !id.isEmpty())
        .orElseThrow(() -> new IOException(op + " " + where(key) + ": the store's answer holds no UploadId"));
  }

  @Override
  public UploadedPart uploadPart(String key, String uploadId, int partNumber, PartData data)
      throws IOException {
    String op = "upload part " + partNumber + " of upload " + uploadId + " to";
    String crc32c = signedParts ? null : S3MultipartStore.crc32c(data);
    String hash = signedParts ? sha256(data) : SigV4.UNSIGNED_PAYLOAD;
    Supplier<DirectRequest> r =
        () -> {
          DirectRequest q =
              request("PUT", key)
                  .query("partNumber", Integer.toString(partNumber))
                  .query("uploadId", uploadId)
                  .header("content-type", OCTETS)
                  .header("expect", "100-continue");
          return crc32c == null
              ? q
              : q.header("x-amz-checksum-crc32c", crc32c).header("x-amz-sdk-checksum-algorithm", "CRC32C");
        };
    DirectTransport.Answer a = call(op, key, r, data, hash, false);
    String etag = a.header("ETag").orElseThrow(() -> new IOException(op + " " + where(key) + ": no ETag in the answer"));
    return new UploadedPart(partNumber, etag, data.length(), crc32c);
  }

  @Override
  public String complete(String key, String uploadId, List<UploadedPart> parts) throws IOException {
    String op = "complete upload " + uploadId + " to";
    StringBuilder xml = new StringBuilder(64 + parts.size() * 128);
    xml.append("<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
    for (UploadedPart p : parts) {
      xml.append("<Part><PartNumber>").append(p.number()).append("</PartNumber><ETag>")
          .append(S3Xml.escape(p.etag())).append("</ETag>");
      if (p.crc32c() != null) {
        xml.append("<ChecksumCRC32C>").append(S3Xml.escape(p.crc32c())).append("</ChecksumCRC32C>");
      }
      xml.append("</Part>");
    }
    byte[] body = xml.append("</CompleteMultipartUpload>").toString().getBytes(StandardCharsets.UTF_8);
    Supplier<DirectRequest> r =
        () -> request("POST", key).query("uploadId", uploadId).header("content-type", "application/xml");
    DirectTransport.Answer a = call(op, key, r, bytes(body), SigV4.sha256Hex(body), true);
    return S3Xml.parse(a.body(), op + " " + where(key)).child("ETag").orElse(null);
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    call("put", key, () -> request("PUT", key).header("content-type", OCTETS), bytes(data),
        SigV4.sha256Hex(data), false);
  }

  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    Supplier<DirectRequest> r = () -> request("PUT", key).header("content-type", OCTETS).header("if-none-match", "*");
    DirectTransport.Answer a =
        call("conditional put", key, r, bytes(data), SigV4.sha256Hex(data), false, 412, 409);
    // 412: the object exists; 409: a concurrent conditional write to the key is in progress
    return a.status() < 300;
  }

  @Override
  public void close() {
    transport.close();
  }

  private static PartData bytes(byte[] data) {
    return PartData.of(List.of(data), data.length);
  }

  private static String sha256(PartData data) throws IOException {
    MessageDigest md = SigV4.sha256();
    data.forEachBlock(md::update);
    return SigV4.hex(md.digest());
  }

  /**
   * Sends a request, retrying what may succeed on another try.
   *
   * @param errorsIn200 whether a 200 answer may still carry an {@code <Error>} (complete does)
   * @param accepted error statuses that are the caller's answer rather than a failure
   */
  private DirectTransport.Answer call(
      String operation, String key, Supplier<DirectRequest> build, PartData body, String payloadHash,
      boolean errorsIn200, int... accepted) throws IOException {
    for (int attempt = 1; ; attempt++) {
      if (Thread.currentThread().isInterrupted()) {
        throw S3Errors.interrupted(operation, where(key), null);
      }
      DirectRequest r = build.get().header("user-agent", "dtap-committer");
      // prepared before signing: the transport sets Content-Length, which the signature covers
      DirectTransport.Exchange exchange = transport.prepare(r, body);
      signer.sign(r, payloadHash, Instant.now());
      DirectTransport.Answer a;
      try {
        a = exchange.call();
      } catch (IOException e) {
        if (e instanceof InterruptedIOException && !(e instanceof SocketTimeoutException)) {
          throw S3Errors.interrupted(operation, where(key), e);
        }
        if (attempt >= ATTEMPTS) {
          throw new IOException(operation + " " + where(key) + ": " + e.getMessage(), e);
        }
        pause(operation, key, attempt, false);
        continue;
      }
      StoreError error = StoreError.of(a, errorsIn200, accepted);
      if (error == null) {
        return a;
      }
      boolean retryable = a.status() >= 500 || a.status() == 429 || RETRYABLE_CODES.contains(error.code);
      if (!retryable || attempt >= ATTEMPTS) {
        throw S3Errors.translate(operation, where(key), a.status(), error.code, error.message, null);
      }
      pause(operation, key, attempt, a.status() == 503 || a.status() == 429 || THROTTLING_CODES.contains(error.code));
    }
  }

  private void pause(String operation, String key, int attempt, boolean throttled) throws IOException {
    long base = throttled ? THROTTLED_BASE_DELAY_MILLIS : BASE_DELAY_MILLIS;
    long ceiling = Math.min(MAX_DELAY_MILLIS, base << (attempt - 1));
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(ceiling + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw S3Errors.interrupted(operation, where(key), e);
    }
  }

  /** The code and message of an answer that reports a failure. */
  private static final class StoreError {
    final String code;
    final String message;

    private StoreError(String code, String message) {
      this.code = code;
      this.message = message;
    }

    /** @return the answer's error, or null if it succeeded or its status is accepted */
    static StoreError of(DirectTransport.Answer a, boolean errorsIn200, int... accepted) {
      for (int s : accepted) {
        if (a.status() == s) {
          return null;
        }
      }
      boolean failed = a.status() >= 300;
      if (!failed && !(errorsIn200 && a.body().length > 0)) {
        return null;
      }
      S3Xml xml = null;
      if (a.body().length > 0) {
        try {
          xml = S3Xml.parse(a.body(), "the store");
        } catch (IOException e) {
          // not S3's XML (a proxy's page, say): the status alone must do
        }
      }
      if (xml == null || !xml.root().equals("Error")) {
        return failed ? new StoreError("", null) : null;
      }
      return new StoreError(xml.child("Code").orElse(""), xml.child("Message").orElse(null));
    }
  }
}
