package dev.dtap.commit.s3;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * AWS Signature Version 4 in the {@code Authorization} header, for the requests dtap sends itself
 * (see {@link DirectUploads}). The payload hash is the caller's: a part's SHA-256 is computed over
 * the part's own arrays, once, instead of by the SDK's signer reading the part through a stream.
 *
 * <p>Credentials come from the tap's provider for every request, so rotated or refreshed
 * credentials are picked up as the SDK would pick them up. Anonymous credentials sign nothing.
 *
 * <p>Thread-safe.
 */
final class SigV4 {
  static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
  private static final String ALGORITHM = "AWS4-HMAC-SHA256";
  private static final String SERVICE = "s3";
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  /** Sent but not signed: hop-by-hop or informational, and rewritten by some proxies. */
  private static final Set<String> UNSIGNED_HEADERS = Set.of("expect", "user-agent", "authorization", "connection");
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final String region;
  private final AwsCredentialsProvider credentials;
  /** The key of the last day and secret signed with: it changes once a day. */
  private volatile DayKey dayKey;

  /**
   * @param region the signing region
   * @param credentials the tap's credentials
   */
  SigV4(String region, AwsCredentialsProvider credentials) {
    this.region = region;
    this.credentials = credentials;
  }

  /**
   * Signs a request: sets {@code x-amz-content-sha256}, {@code x-amz-date}, the session token if
   * any, and {@code Authorization}.
   *
   * @param r the request, complete but for these headers
   * @param payloadHash the hex SHA-256 of the body, or {@link #UNSIGNED_PAYLOAD}
   * @param now the signing time
   */
  void sign(DirectRequest r, String payloadHash, Instant now) {
    r.header("x-amz-content-sha256", payloadHash);
    AwsCredentials c = credentials.resolveCredentials();
    if (c.accessKeyId() == null || c.secretAccessKey() == null) {
      return;
    }
    String stamp = STAMP.format(now);
    r.header("x-amz-date", stamp);
    if (c instanceof AwsSessionCredentials) {
      r.header("x-amz-security-token", ((AwsSessionCredentials) c).sessionToken());
    }
    StringBuilder canonical = new StringBuilder(512);
    canonical.append(r.method()).append('\n').append(r.path()).append('\n').append(r.canonicalQuery()).append('\n');
    StringBuilder signed = new StringBuilder(128);
    for (Map.Entry<String, String> h : r.headers().entrySet()) {
      if (UNSIGNED_HEADERS.contains(h.getKey())) {
        continue;
      }
      canonical.append(h.getKey()).append(':').append(canonicalValue(h.getValue())).append('\n');
      signed.append(signed.length() == 0 ? "" : ";").append(h.getKey());
    }
    canonical.append('\n').append(signed).append('\n').append(payloadHash);
    String day = stamp.substring(0, 8);
    String scope = day + "/" + region + "/" + SERVICE + "/aws4_request";
    String toSign = ALGORITHM + "\n" + stamp + "\n" + scope + "\n" + hex(sha256(canonical.toString()));
    String signature = hex(hmac(key(day, c.secretAccessKey()), toSign));
    r.header(
        "authorization",
        ALGORITHM + " Credential=" + c.accessKeyId() + "/" + scope + ", SignedHeaders=" + signed
            + ", Signature=" + signature);
  }

  private byte[] key(String day, String secret) {
    DayKey k = dayKey;
    if (k != null && k.day.equals(day) && k.secret.equals(secret)) {
      return k.key;
    }
    byte[] key = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), day);
    key = hmac(key, region);
    key = hmac(key, SERVICE);
    key = hmac(key, "aws4_request");
    dayKey = new DayKey(day, secret, key);
    return key;
  }

  /** SigV4 trims a header value and folds runs of spaces into one. */
  private static String canonicalValue(String v) {
    String t = v.trim();
    return t.indexOf("  ") < 0 ? t : t.replaceAll(" +", " ");
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
    }
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  static byte[] sha256(String s) {
    return sha256().digest(s.getBytes(StandardCharsets.UTF_8));
  }

  /** @return the hex SHA-256 of the bytes, as {@code x-amz-content-sha256} carries it */
  static String sha256Hex(byte[] bytes) {
    return hex(sha256().digest(bytes));
  }

  static String hex(byte[] bytes) {
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
      out[2 * i + 1] = HEX[bytes[i] & 0xf];
    }
    return new String(out);
  }

  private static final class DayKey {
    final String day;
    final String secret;
    final byte[] key;

    DayKey(String day, String secret, byte[] key) {
      this.day = day;
      this.secret = secret;
      this.key = key;
    }
  }
}
