package dev.dtap.cache;

import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Who reads through a tap, as far as the cache must tell readers apart: the backend (scheme and
 * authority), the user, and the credentials the backend is reached with (for S3, the access key,
 * secret, session token, provider list and role, each as the bucket's own setting wins over the
 * general one). It is part of every page key, so two taps with other credentials over one bucket
 * never share a page, in this JVM, on the host's cache service or through its peers: a reader only
 * ever gets pages that readers with its own credentials fetched.
 *
 * <p>Only a SHA-256 digest of it is kept. Immutable.
 */
final class TenantScope {
  private static final String[] S3_CREDENTIAL_KEYS = {
    "access.key",
    "secret.key",
    "session.token",
    "aws.credentials.provider",
    "assumed.role.arn",
    "assumed.role.credentials.provider",
    "delegation.token.binding"
  };

  private TenantScope() {}

  /**
   * The scope of a tap's readers in this JVM.
   *
   * @param tap the tap
   * @return a digest naming it
   * @throws IOException if the user or a credential cannot be read
   */
  static String of(TapContext tap) throws IOException {
    URI backend = tap.backend().getUri();
    StringBuilder sb = new StringBuilder();
    sb.append(backend.getScheme()).append("://").append(backend.getAuthority());
    sb.append('\u0000').append(UserGroupInformation.getCurrentUser().getShortUserName());
    if ("s3a".equalsIgnoreCase(backend.getScheme())) {
      Configuration conf = tap.backendConfiguration();
      String bucket = backend.getHost();
      for (String k : S3_CREDENTIAL_KEYS) {
        sb.append('\u0000').append(k).append('=').append(value(conf, bucket, k));
      }
    }
    return digest(sb.toString());
  }

  private static String value(Configuration conf, String bucket, String key) throws IOException {
    char[] v = bucket == null ? null : conf.getPassword("fs.s3a.bucket." + bucket + "." + key);
    if (v == null) {
      v = conf.getPassword("fs.s3a." + key);
    }
    return v == null ? "" : new String(v);
  }

  private static String digest(String s) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder();
      for (byte b : d) {
        hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
