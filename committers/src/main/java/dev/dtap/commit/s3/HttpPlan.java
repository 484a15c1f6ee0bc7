package dev.dtap.commit.s3;

import dev.dtap.commit.store.StoreOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.PasswordAuthentication;
import java.net.ProxySelector;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.awscore.endpoints.AwsEndpointAttribute;
import software.amazon.awssdk.awscore.endpoints.authscheme.EndpointAuthScheme;
import software.amazon.awssdk.awscore.endpoints.authscheme.SigV4AuthScheme;
import software.amazon.awssdk.core.client.config.SdkAdvancedClientOption;
import software.amazon.awssdk.endpoints.Endpoint;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3ServiceClientConfiguration;
import software.amazon.awssdk.services.s3.endpoints.S3EndpointProvider;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * Where and how dtap's own HTTP requests reach a tap's bucket, worked out once from S3A's client
 * and configuration: the endpoint the SDK's own endpoint rules give for the bucket (path-style or
 * virtual-host, FIPS), the signing region and name those rules give, timeouts, the connection
 * limit, and the proxy. Or, when S3A is set up in a way these requests cannot reproduce exactly,
 * the key that says so, so that the caller sends everything through S3A's own client instead (or
 * fails, naming it, when {@code fs.dtap.committer.transport=http} was asked for).
 *
 * <p>Immutable and thread-safe; {@link #toString()} shows no credential.
 */
final class HttpPlan {
  private final URI bucketUri;
  private final String signingRegion;
  private final String signingName;
  private final boolean https;
  private final Duration connectTimeout;
  private final Duration requestTimeout;
  private final int maxConnections;
  private final int attempts;
  private final InetSocketAddress proxy;
  private final PasswordAuthentication proxyAuth;
  private final String userAgent;

  private HttpPlan(
      URI bucketUri,
      String signingRegion,
      String signingName,
      Duration connectTimeout,
      Duration requestTimeout,
      int maxConnections,
      int attempts,
      InetSocketAddress proxy,
      PasswordAuthentication proxyAuth,
      String userAgent) {
    this.bucketUri = bucketUri;
    this.signingRegion = signingRegion;
    this.signingName = signingName;
    this.https = "https".equalsIgnoreCase(bucketUri.getScheme());
    this.connectTimeout = connectTimeout;
    this.requestTimeout = requestTimeout;
    this.maxConnections = maxConnections;
    this.attempts = attempts;
    this.proxy = proxy;
    this.proxyAuth = proxyAuth;
    this.userAgent = userAgent;
  }

  /** Why the HTTP requests cannot serve a tap: the key that decides it, and the reason. */
  static final class Refusal {
    final String key;
    final String reason;

    Refusal(String key, String reason) {
      this.key = key;
      this.reason = reason;
    }

    @Override
    public String toString() {
      return key + ": " + reason;
    }
  }

  /** What dtap's requests add to S3A's user agent, where the SDK would name itself. */
  private static final String USER_AGENT = "dtap-committers Java-http-client";

  private static final String LOGGING = "org.apache.hadoop.fs.s3a.audit.impl.LoggingAuditor";

  /**
   * S3A's own auditors: inside a span, they change a request only by the headers they add (the
   * logging auditor also refuses multipart requests where S3A disables multipart uploads, which
   * S3StoreFactory refuses earlier).
   */
  private static final List<String> S3A_AUDITORS =
      List.of(LOGGING, "org.apache.hadoop.fs.s3a.audit.impl.NoopAuditor");

  /**
   * Works out the plan for a tap, or why there is none.
   *
   * @param s3a the tap's S3A
   * @param options the committers' store settings
   * @return the plan, or the refusal
   * @throws IOException if a setting is invalid
   */
  static Object plan(S3aV2Access s3a, StoreOptions options) throws IOException {
    Configuration conf = s3a.conf();
    S3ServiceClientConfiguration client = s3a.client().serviceClientConfiguration();
    for (String key :
        new String[] {
          "fs.s3a.signing-algorithm", "fs.s3a.s3.signing-algorithm", "fs.s3a.custom.signers"
        }) {
      String v = conf.getTrimmed(key, "");
      if (!v.isEmpty() && !v.equals("AWS4SignerType")) {
        return new Refusal(key, "a custom signer is S3A's to run");
      }
    }
    if (conf.getBoolean("fs.s3a.http.signer.enabled", false)) {
      return new Refusal("fs.s3a.http.signer.enabled", "a custom signer is S3A's to run");
    }
    if (conf.getBoolean("fs.s3a.checksum.generation", false)) {
      // Hadoop 3.5: the SDK adds checksums of its own choosing to every upload
      return new Refusal(
          "fs.s3a.checksum.generation", "the SDK's own checksums are its client's to add");
    }
    if (conf.getBoolean("fs.s3a.audit.enabled", true)
        && !S3A_AUDITORS.contains(conf.getTrimmed("fs.s3a.audit.service.classname", LOGGING))) {
      // dtap's requests get the span's headers only; an auditor may act at any other point
      return new Refusal(
          "fs.s3a.audit.service.classname",
          "an auditor of the user's sees S3A's client's requests");
    }
    if (!conf.getTrimmed("fs.s3a.audit.execution.interceptors", "").isEmpty()) {
      return new Refusal(
          "fs.s3a.audit.execution.interceptors", "interceptors may change S3A's requests");
    }
    if (!conf.getTrimmed("fs.s3a.proxy.domain", "").isEmpty()
        || !conf.getTrimmed("fs.s3a.proxy.workstation", "").isEmpty()) {
      return new Refusal("fs.s3a.proxy.domain", "NTLM proxy authentication is S3A's client's");
    }
    if (conf.getBoolean("fs.s3a.proxy.ssl.enabled", false)) {
      return new Refusal(
          "fs.s3a.proxy.ssl.enabled", "the JDK's HTTP client cannot talk TLS to a proxy");
    }
    String proxyHost = conf.getTrimmed("fs.s3a.proxy.host", "");
    if (proxyHost.isEmpty()
        && (System.getenv("HTTPS_PROXY") != null || System.getenv("HTTP_PROXY") != null)) {
      return new Refusal(
          "fs.s3a.proxy.host", "unset, and the SDK would use the proxy of HTTP(S)_PROXY");
    }
    Optional<URI> override = client.endpointOverride();
    Region region = client.region();
    if (!override.isPresent() && conf.getTrimmed("fs.s3a.endpoint.region", "").isEmpty()) {
      return new Refusal(
          "fs.s3a.endpoint.region",
          "unset: S3A may find the bucket's region by redirects, which it follows itself");
    }
    if (region == null) {
      return new Refusal("fs.s3a.endpoint.region", "S3A's client has no region");
    }
    S3EndpointProvider rules = S3EndpointProvider.defaultProvider();
    Endpoint endpoint;
    try {
      endpoint =
          rules
              .resolveEndpoint(
                  b -> {
                    b.bucket(s3a.bucket())
                        .region(region)
                        .forcePathStyle(conf.getBoolean("fs.s3a.path.style.access", false))
                        .useFips(conf.getBoolean("fs.s3a.endpoint.fips", false))
                        .useDualStack(false)
                        .accelerate(false);
                    override.ifPresent(u -> b.endpoint(u.toString()));
                  })
              .join();
    } catch (CompletionException | IllegalArgumentException e) {
      return new Refusal(
          "fs.s3a.endpoint", "the SDK's endpoint rules refuse the bucket: " + e.getMessage());
    }
    String signingRegion = region.id();
    String signingName = "s3";
    List<EndpointAuthScheme> schemes = endpoint.attribute(AwsEndpointAttribute.AUTH_SCHEMES);
    if (schemes != null && !schemes.isEmpty()) {
      EndpointAuthScheme first = schemes.get(0);
      if (!(first instanceof SigV4AuthScheme)) {
        return new Refusal(
            "fs.s3a.endpoint", "the bucket needs the " + first.name() + " auth scheme");
      }
      SigV4AuthScheme v4 = (SigV4AuthScheme) first;
      if (v4.signingRegion() != null) {
        signingRegion = v4.signingRegion();
      }
      if (v4.signingName() != null) {
        signingName = v4.signingName();
      }
    }
    InetSocketAddress proxy = null;
    PasswordAuthentication auth = null;
    if (!proxyHost.isEmpty()) {
      int port = conf.getInt("fs.s3a.proxy.port", -1);
      if (port < 0) {
        port = "https".equalsIgnoreCase(endpoint.url().getScheme()) ? 443 : 80;
      }
      proxy = InetSocketAddress.createUnresolved(proxyHost, port);
      String user = secret(conf, "fs.s3a.proxy.username");
      String password = secret(conf, "fs.s3a.proxy.password");
      if ((user == null) != (password == null)) {
        throw new IOException(
            "S3A's proxy needs both fs.s3a.proxy.username and fs.s3a.proxy.password, or neither");
      }
      if (user != null) {
        if ("https".equalsIgnoreCase(endpoint.url().getScheme())) {
          // the JDK sends proxy credentials for a tunnel only through Basic, which it disables for
          // tunnels by default (jdk.http.auth.tunneling.disabledSchemes)
          return new Refusal(
              "fs.s3a.proxy.username", "the JDK's client cannot authenticate to a proxy for https");
        }
        auth = new PasswordAuthentication(user, password.toCharArray());
      }
    } else if (conf.getInt("fs.s3a.proxy.port", -1) >= 0) {
      throw new IOException("fs.s3a.proxy.port is set without fs.s3a.proxy.host");
    }
    Duration connect =
        duration(conf, "fs.s3a.connection.establish.timeout", Duration.ofSeconds(30));
    Duration request = client.overrideConfiguration().apiCallTimeout().orElse(null);
    int max = conf.getInt("fs.s3a.connection.maximum", 500);
    int attempts = Math.max(1, conf.getInt("fs.s3a.attempts.maximum", 5));
    return new HttpPlan(
        endpoint.url(),
        signingRegion,
        signingName,
        connect,
        request,
        Math.max(1, max),
        attempts,
        proxy,
        auth,
        client
            .overrideConfiguration()
            .advancedOption(SdkAdvancedClientOption.USER_AGENT_PREFIX)
            .map(prefix -> prefix + " " + USER_AGENT)
            .orElse(USER_AGENT));
  }

  private static String secret(Configuration conf, String key) throws IOException {
    char[] v = conf.getPassword(key);
    if (v == null) {
      return null;
    }
    String s = new String(v).trim();
    return s.isEmpty() ? null : s;
  }

  private static Duration duration(Configuration conf, String key, Duration dflt) {
    long ms =
        conf.getTimeDuration(key, dflt.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    return Duration.ofMillis(Math.max(1, ms));
  }

  /**
   * The URI of an object, its key encoded as S3 signs it (every byte but unreserved characters and
   * {@code /} percent-encoded).
   *
   * @param key the key
   * @param query the query string without {@code ?}, or null
   * @return the URI
   */
  URI uri(String key, String query) {
    String base = bucketUri.toString();
    String path =
        (base.endsWith("/") ? base : base + "/") + SdkHttpUtils.urlEncodeIgnoreSlashes(key);
    return URI.create(query == null ? path : path + "?" + query);
  }

  String signingRegion() {
    return signingRegion;
  }

  String signingName() {
    return signingName;
  }

  boolean https() {
    return https;
  }

  Duration connectTimeout() {
    return connectTimeout;
  }

  /**
   * @return S3A's API call timeout, if it sets one
   */
  Optional<Duration> requestTimeout() {
    return Optional.ofNullable(requestTimeout);
  }

  /**
   * @return the {@code User-Agent} of every request: S3A's prefix for its client ({@code
   *     fs.s3a.user.agent.prefix}, then Hadoop's version), as the SDK sends it, then dtap's client
   */
  String userAgent() {
    return userAgent;
  }

  int maxConnections() {
    return maxConnections;
  }

  /**
   * @return attempts per request, S3A's {@code fs.s3a.attempts.maximum}
   */
  int attempts() {
    return attempts;
  }

  /**
   * @return the proxy selector, if S3A names a proxy
   */
  Optional<ProxySelector> proxy() {
    return proxy == null ? Optional.empty() : Optional.of(ProxySelector.of(proxy));
  }

  /**
   * The {@code Proxy-Authorization} header of every request, when S3A has proxy credentials: sent
   * with the request rather than after the proxy's 407, since the JDK's client drops a request's
   * own {@code Authorization} when it answers a proxy's challenge itself.
   *
   * @return the header's value, {@code Basic ...}
   */
  Optional<String> proxyAuthorization() {
    if (proxyAuth == null) {
      return Optional.empty();
    }
    String pair = proxyAuth.getUserName() + ":" + new String(proxyAuth.getPassword());
    return Optional.of(
        "Basic "
            + java.util.Base64.getEncoder()
                .encodeToString(pair.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }

  @Override
  public String toString() {
    return "HttpPlan{"
        + (https ? "https" : "http")
        + ", region="
        + signingRegion
        + (proxy == null ? "" : ", proxy " + proxy.getHostString() + ":" + proxy.getPort())
        + ", maxConnections="
        + maxConnections
        + "}";
  }
}
