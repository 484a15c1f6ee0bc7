package dev.dtap.commit.s3;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hadoop.conf.Configuration;

/**
 * The S3 connection settings of one tap, read once from the tap's backend configuration with the
 * same {@code fs.s3a.*} keys S3A reads, including per-bucket overrides ({@code
 * fs.s3a.bucket.<bucket>.<key>} wins over {@code fs.s3a.<key>}). No S3A class is used.
 *
 * <p>Immutable and thread-safe; {@link #toString()} never shows credentials.
 */
final class S3Settings {
  static final String PREFIX = "fs.s3a.";

  private final String bucket;
  private final URI endpoint;
  private final String region;
  private final boolean pathStyle;
  private final int maxConnections;
  private final S3Credentials credentials;

  private S3Settings(
      String bucket,
      URI endpoint,
      String region,
      boolean pathStyle,
      int maxConnections,
      S3Credentials credentials) {
    this.bucket = bucket;
    this.endpoint = endpoint;
    this.region = region;
    this.pathStyle = pathStyle;
    this.maxConnections = maxConnections;
    this.credentials = credentials;
  }

  /**
   * Reads the settings for a bucket.
   *
   * @param bucket the bucket
   * @param conf the tap's backend configuration
   * @param tapName for messages
   * @return the settings
   * @throws IOException naming the key when a value is invalid
   */
  static S3Settings read(String bucket, Configuration conf, String tapName) throws IOException {
    Lookup l = new Lookup(conf, bucket, tapName);
    boolean ssl = l.bool("connection.ssl.enabled", true);
    URI endpoint = endpoint(l.get("endpoint"), ssl, l);
    String region = l.get("endpoint.region");
    if (region == null) {
      region = l.get("region");
    }
    if (region == null) {
      // S3A's choice for a custom endpoint with no region: the signing region S3-compatible stores
      // accept; for AWS the SDK's region chain decides
      region = endpoint != null ? "us-east-1" : null;
    }
    boolean pathStyle = l.bool("path.style.access", false);
    int maxConnections = l.integer("connection.maximum", 96, 1, 10_000);
    S3Credentials credentials = S3Credentials.read(l);
    return new S3Settings(bucket, endpoint, region, pathStyle, maxConnections, credentials);
  }

  private static URI endpoint(String value, boolean ssl, Lookup l) throws IOException {
    if (value == null) {
      return null;
    }
    String v = value.contains("://") ? value : (ssl ? "https://" : "http://") + value;
    try {
      URI u = new URI(v);
      if (u.getHost() == null) {
        throw new URISyntaxException(v, "no host");
      }
      return u;
    } catch (URISyntaxException e) {
      throw l.invalid("endpoint", "a URL such as https://s3.example.com:9000 or host:port");
    }
  }

  String bucket() {
    return bucket;
  }

  /** @return the endpoint, or null for AWS's regional endpoints */
  URI endpoint() {
    return endpoint;
  }

  /** @return the signing region, or null for the SDK's region chain */
  String region() {
    return region;
  }

  boolean pathStyle() {
    return pathStyle;
  }

  int maxConnections() {
    return maxConnections;
  }

  S3Credentials credentials() {
    return credentials;
  }

  @Override
  public String toString() {
    return "S3Settings{bucket="
        + bucket
        + ", endpoint="
        + endpoint
        + ", region="
        + region
        + ", pathStyle="
        + pathStyle
        + ", credentials="
        + credentials
        + "}";
  }

  /** Reads {@code fs.s3a.*} keys with per-bucket overrides. */
  static final class Lookup {
    private final Configuration conf;
    private final String bucket;
    private final String tapName;

    Lookup(Configuration conf, String bucket, String tapName) {
      this.conf = conf;
      this.bucket = bucket;
      this.tapName = tapName;
    }

    /** The key that decides a setting: the per-bucket one when it is set. */
    String keyFor(String suffix) {
      String perBucket = PREFIX + "bucket." + bucket + "." + suffix;
      return conf.get(perBucket) != null ? perBucket : PREFIX + suffix;
    }

    String get(String suffix) {
      String v = conf.getTrimmed(keyFor(suffix));
      return v == null || v.isEmpty() ? null : v;
    }

    /** A secret, through Hadoop's credential providers as well as plain configuration. */
    String password(String suffix) throws IOException {
      char[] v = conf.getPassword(keyFor(suffix));
      if (v == null && !keyFor(suffix).equals(PREFIX + suffix)) {
        v = conf.getPassword(PREFIX + suffix);
      }
      if (v == null) {
        return null;
      }
      String s = new String(v).trim();
      return s.isEmpty() ? null : s;
    }

    boolean bool(String suffix, boolean dflt) throws IOException {
      String v = get(suffix);
      if (v == null) {
        return dflt;
      }
      if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
        return Boolean.parseBoolean(v);
      }
      throw invalid(suffix, "true or false");
    }

    int integer(String suffix, int dflt, int min, int max) throws IOException {
      String v = get(suffix);
      if (v == null) {
        return dflt;
      }
      try {
        int n = Integer.parseInt(v);
        if (n >= min && n <= max) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw invalid(suffix, "an integer from " + min + " to " + max);
    }

    IOException invalid(String suffix, String accepted) {
      // the value is not shown: some of these keys hold secrets or URLs with user info
      return new IOException(
          "Invalid value for "
              + keyFor(suffix)
              + " in the backend settings of tap '"
              + tapName
              + "': expected "
              + accepted);
    }

    String tapName() {
      return tapName;
    }
  }
}
