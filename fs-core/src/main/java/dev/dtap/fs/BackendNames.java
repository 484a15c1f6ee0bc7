package dev.dtap.fs;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a backend's messages name what is behind a tap, and how each is written in dtap terms: the
 * root and paths under it become {@code dtap://tap/...}; the root's container (bucket, NameNode
 * authority) in any of the forms clients print it becomes {@code [backend of tap 'x']}; the servers
 * behind it become {@code [server of tap 'x']}. The patterns are built once per tap.
 *
 * <p>Immutable and thread-safe.
 */
final class BackendNames {
  /** Schemes whose messages name objects by key, without a leading slash. */
  private static final List<String> OBJECT_STORES = Arrays.asList("s3a", "s3", "s3n", "gs", "oss");

  /**
   * The address a host resolved to, as Java prints it after the name ({@code minio/172.18.0.2}):
   * exactly four numbers, so that a path segment ({@code minio/2024/x}) is not taken for one.
   */
  private static final String IPV4 = "\\d{1,3}(?:\\.\\d{1,3}){3}";

  /** One group of an IPv6 address. */
  private static final String HEX = "[0-9a-fA-F]{1,4}";

  /**
   * An IPv6 address as Java prints one: eight groups, or fewer around a {@code ::}, with a zone; so
   * that {@code minio/12:30:45} is no address.
   */
  private static final String IPV6 =
      "(?:(?:"
          + HEX
          + ":){7}"
          + HEX
          + "|(?:"
          + HEX
          + "(?::"
          + HEX
          + ")*)?::(?:"
          + HEX
          + "(?::"
          + HEX
          + ")*)?)(?:%[\\w.]+)?";

  /**
   * The address a host resolved to: IPv4 as above, or IPv6 bare or in brackets, as JDK 14 and later
   * print it ({@code nn/[2001:db8::1]:8020}).
   */
  private static final String RESOLVED = "(?:" + IPV4 + "|" + IPV6 + "|\\[" + IPV6 + "\\])";

  /**
   * What the system resolver says after a host it cannot resolve, as the JDK passes it on in {@code
   * UnknownHostException}'s message (glibc, musl, the BSDs and macOS).
   */
  private static final String RESOLVER_FAILURES =
      "Name or service not known|Temporary failure in name resolution"
          + "|No address associated with hostname|Name does not resolve|Try again"
          + "|nodename nor servname provided";

  private final String tap;
  private final Pattern rootPattern;
  private final Pattern backendPattern;
  private final Pattern addressPattern;

  /** The servers' hosts, lower case: an {@code UnknownHostException} may name one alone. */
  private final Set<String> hosts = new HashSet<>();

  /**
   * @param tap the tap's name
   * @param backendRoot the tap's root on its backend
   * @param addresses {@code host} or {@code host:port} of the servers behind the tap (NameNodes,
   *     the store's endpoint; see {@link BackendAddresses})
   */
  BackendNames(String tap, URI backendRoot, Collection<String> addresses) {
    this.tap = tap;
    // a scheme in any case (RFC 3986: S3A://bucket is s3a://bucket)
    String scheme =
        BackendAddresses.S3_SCHEMES.contains(backendRoot.getScheme())
            ? "(?i:s3a|s3n|s3)"
            : "(?i:" + Pattern.quote(backendRoot.getScheme()) + ")";
    String authority = backendRoot.getAuthority() == null ? "" : backendRoot.getAuthority();
    String rootPath = backendRoot.getPath() == null ? "" : backendRoot.getPath();
    if (rootPath.equals("/")) {
      rootPath = "";
    }
    String container = containerPattern(scheme, authority, backendRoot, addresses);
    String qRoot = Pattern.quote(rootPath);
    // container/root, scheme:/root (local form), and for non-trivial roots the bare path
    StringBuilder alt = new StringBuilder();
    alt.append(container).append(qRoot);
    if (authority.isEmpty()) {
      alt.append('|').append(scheme).append(':').append(qRoot.isEmpty() ? "(?=/)" : qRoot);
    }
    if (!rootPath.isEmpty()) {
      alt.append("|(?<![\\w/.:-])").append(qRoot);
      if (OBJECT_STORES.contains(backendRoot.getScheme())) {
        // S3A names objects by key ("Completing multipart upload on data/part-0"): no leading
        // slash. Without one, the key is an ordinary word too ("Unable to read data from the
        // stream"), so it is taken only before a slash, a colon, a quote or the message's end.
        alt.append("|(?<![\\w/.:-])")
            .append(Pattern.quote(rootPath.startsWith("/") ? rootPath.substring(1) : rootPath))
            .append("(?=/|$|[:'\"`\\]])");
      }
    }
    // the root ends at a slash, the message's end, a quote or punctuation, or a sentence's full
    // stop (but warehouse.old is another directory)
    this.rootPattern = Pattern.compile("(?:" + alt + ")(?=/|$|[\\s'\"`),;:?\\]]|\\.(?![\\w-]))");
    this.backendPattern =
        Pattern.compile(
            container
                // the whole authority: s3a://data is not s3a://data-archive nor s3a://data.old,
                // while a sentence may end right after it ("... in s3a://data.")
                + (authority.isEmpty() ? "(/)" : "(?![\\w-]|\\.[\\w-])(/?)"));
    this.addressPattern = addressPattern(addresses);
    for (String address : addresses) {
      if (!host(address).isEmpty()) {
        hosts.add(host(address).toLowerCase(Locale.ROOT));
      }
    }
  }

  /**
   * The ways a message names the root's container: {@code scheme://authority}, and for an S3 bucket
   * its ARN, its virtual-host and path-style URLs on AWS and on the tap's own endpoint.
   */
  private static String containerPattern(
      String scheme, String authority, URI root, Collection<String> addresses) {
    String qAuthority = Pattern.quote(authority);
    StringBuilder p = new StringBuilder("(?:").append(scheme).append("://").append(qAuthority);
    if (BackendAddresses.HDFS_SCHEMES.contains(root.getScheme())) {
      // a NameNode named by its host (an HA nameservice's, or with another port, or WebHDFS's)
      for (String address : addresses) {
        if (host(address).isEmpty()) {
          continue;
        }
        p.append("|(?i:(?:hdfs|webhdfs|swebhdfs)://")
            .append(Pattern.quote(host(address)))
            .append(")(?::\\d+)?");
      }
    }
    if (BackendAddresses.S3_SCHEMES.contains(root.getScheme()) && !authority.isEmpty()) {
      // host names match in any case (an endpoint configured as MINIO.internal is written
      // minio.internal by some clients); the bucket after a path-style host is a path, as written
      List<String> servers = new ArrayList<>();
      servers.add("s3[\\w.-]*\\.amazonaws\\.com(?:\\.cn)?");
      for (String address : addresses) {
        if (!host(address).isEmpty()) {
          servers.add(Pattern.quote(host(address)));
        }
      }
      p.append("|arn:aws[\\w-]*:s3:::").append(qAuthority);
      String url = "|(?<![\\w.-])(?i:(?:https?://)?";
      String port = "(?::\\d+)?";
      for (String server : servers) {
        // virtual-host style (the bucket is a label of the host name), then path style
        p.append(url).append(qAuthority).append("\\.").append(server).append(')').append(port);
        p.append(url).append(server).append(')').append(port).append('/').append(qAuthority);
      }
    }
    return p.append(')').toString();
  }

  /**
   * A server named on its own, as clients do in connection errors ({@code Call From h/10.0.0.1 to
   * nn.example.com:8020 failed}, {@code Connect to minio.internal:9000 [minio.internal/10.0.0.5]
   * failed}): with any port and the address it resolved to. A host without a dot ({@code nn},
   * {@code localhost}) is taken only with a port, since it may be a word of the message.
   */
  private static Pattern addressPattern(Collection<String> addresses) {
    StringBuilder p = new StringBuilder();
    for (String address : addresses) {
      String host = host(address);
      if (host.isEmpty()) {
        continue;
      }
      String q = Pattern.quote(host);
      p.append(p.length() == 0 ? "" : "|").append("(?<![\\w.-])(?:https?://)?").append(q);
      if (host.contains(".") || host.startsWith("[")) {
        p.append("(?:/" + RESOLVED + ")?(?::\\d+)?(?![\\w-]|\\.[\\w-])");
      } else {
        // with a port, with the address it resolved to (Apache's "[minio/172.18.0.2]"), as
        // Hadoop's RPC client quotes it (destination host is: "nn":8020), or before the resolver's
        // own words when it cannot be resolved ("minio: Name or service not known")
        p.append("(?:(?:/" + RESOLVED + ")?:\\d+(?!\\w)|/" + RESOLVED + "(?![\\w.-])");
        p.append("|(?=\"\\s*:\\s*\\d)");
        p.append("|(?=:\\s*(?:" + RESOLVER_FAILURES + ")))");
      }
    }
    return p.length() == 0 ? null : Pattern.compile(p.toString(), Pattern.CASE_INSENSITIVE);
  }

  /**
   * The server an {@code UnknownHostException} could not resolve, when it is one behind the tap:
   * the JDK names the host first ({@code minio} or {@code minio: Name or service not known}).
   *
   * @param message the exception's message, may be null
   * @return the host, lower case, or null when the message names no server of the tap
   */
  String unresolvedServer(String message) {
    if (message == null) {
      return null;
    }
    int colon = message.indexOf(':');
    String host = (colon < 0 ? message : message.substring(0, colon)).trim();
    host = host.toLowerCase(Locale.ROOT);
    return hosts.contains(host) ? host : null;
  }

  /**
   * Rewrites one message of a failure that could not resolve a server: once the JDK has said which
   * host it could not resolve, every client above it names that host alone ("Unable to execute HTTP
   * request: minio"), so there it is taken wherever it stands as a word.
   *
   * @param message a backend message, may be null
   * @param unresolved hosts an {@code UnknownHostException} in the same failure named (see {@link
   *     #unresolvedServer})
   * @return the message speaking dtap, or the same instance when nothing needed rewriting
   */
  String translate(String message, Set<String> unresolved) {
    if (message == null || unresolved.isEmpty()) {
      return translate(message);
    }
    StringBuilder words = new StringBuilder();
    for (String host : unresolved) {
      words.append(words.length() == 0 ? "" : "|").append(Pattern.quote(host));
    }
    // on the message as the client wrote it, before any rewriting: a path segment, a URI's
    // authority (s3a://minio, dtap://minio) or a quoted tap name spelled like the server is no
    // server, so neither a slash, a colon nor a quote may come before it
    Matcher server =
        Pattern.compile(
                "(?<![\\w./:'-])(?:https?://)?(?:" + words + ")(?![\\w/-]|\\.[\\w-])",
                Pattern.CASE_INSENSITIVE)
            .matcher(message);
    String out =
        server.find()
            ? server.replaceAll(Matcher.quoteReplacement("[server of tap '" + tap + "']"))
            : message;
    return translate(out);
  }

  /** The host of {@code host}, {@code host:port}, {@code [v6]} or {@code [v6]:port}. */
  private static String host(String address) {
    int bracket = address.lastIndexOf(']');
    int colon = address.lastIndexOf(':');
    return colon <= bracket ? address : address.substring(0, colon);
  }

  /**
   * Whether {@link #translate(String)} would rewrite a message, without building the rewrite.
   *
   * @param message a backend message, may be null
   * @return whether the message shows the backend's root, location or a server of the tap
   */
  boolean shows(String message) {
    return message != null
        && (rootPattern.matcher(message).find()
            || backendPattern.matcher(message).find()
            || (addressPattern != null && addressPattern.matcher(message).find()));
  }

  /**
   * Rewrites one message.
   *
   * @param message a backend message, may be null
   * @return the message speaking dtap, or the same instance when nothing needed rewriting
   */
  String translate(String message) {
    if (message == null) {
      return null;
    }
    Matcher m = rootPattern.matcher(message);
    String out = m.find() ? m.replaceAll(Matcher.quoteReplacement("dtap://" + tap)) : message;
    Matcher rest = backendPattern.matcher(out);
    if (rest.find()) {
      // the slash stays where there was one: "s3a://data/other" reads "[backend of tap 'x']/other"
      out = rest.replaceAll(Matcher.quoteReplacement("[backend of tap '" + tap + "']") + "$1");
    }
    if (addressPattern != null) {
      Matcher server = addressPattern.matcher(out);
      if (server.find()) {
        // a server, not a location in the tap: "[server of tap 'x']/other-bucket/k" is no path of x
        out = server.replaceAll(Matcher.quoteReplacement("[server of tap '" + tap + "']"));
      }
    }
    return out;
  }
}
