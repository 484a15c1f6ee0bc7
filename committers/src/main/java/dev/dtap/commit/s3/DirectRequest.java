package dev.dtap.commit.s3;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One S3 request as dtap sends it itself (see {@link DirectUploads}): method, endpoint, an
 * encoded path, query parameters and headers, in the sorted form SigV4 signs. Header names are kept
 * in lower case; HTTP does not care and the signature needs them so.
 *
 * <p>Not thread-safe: built, signed and sent by one thread.
 */
final class DirectRequest {
  private final String method;
  private final String host;
  private final int port;
  private final String path;
  private final Map<String, String> query = new TreeMap<>();
  private final Map<String, String> headers = new TreeMap<>();

  /**
   * @param method the HTTP method
   * @param host the host to connect to and name in {@code Host}
   * @param port the port
   * @param encodedPath the path, already encoded as {@link #encode} does ('/' kept)
   */
  DirectRequest(String method, String host, int port, String encodedPath) {
    this.method = method;
    this.host = host;
    this.port = port;
    this.path = encodedPath.isEmpty() ? "/" : encodedPath;
    headers.put("host", port == 80 ? host : host + ":" + port);
  }

  /**
   * Adds a query parameter; an empty value stands for a bare name such as {@code ?uploads}.
   *
   * @param name the name, not encoded
   * @param value the value, not encoded
   * @return this
   */
  DirectRequest query(String name, String value) {
    query.put(encode(name, false), encode(value, false));
    return this;
  }

  /**
   * Sets a header, replacing one of the same name.
   *
   * @param name the name, in any case
   * @param value the value
   * @return this
   */
  DirectRequest header(String name, String value) {
    headers.put(name.toLowerCase(Locale.ROOT), value);
    return this;
  }

  String method() {
    return method;
  }

  String host() {
    return host;
  }

  int port() {
    return port;
  }

  String path() {
    return path;
  }

  /** @return the value of a header, or null */
  String header(String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }

  /** @return every header, by lower-case name, sorted */
  Map<String, String> headers() {
    return headers;
  }

  /** @return the query as SigV4 signs it: sorted, encoded, every name with '=' */
  String canonicalQuery() {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> q : query.entrySet()) {
      if (sb.length() > 0) {
        sb.append('&');
      }
      sb.append(q.getKey()).append('=').append(q.getValue());
    }
    return sb.toString();
  }

  /** @return where the request goes: the path and query, as on the request line */
  String target() {
    String q = canonicalQuery();
    return q.isEmpty() ? path : path + "?" + q;
  }

  /**
   * The request line and headers, ending with the empty line.
   *
   * @return the bytes to send before the body
   * @throws IOException if a header would break the request: a line break in a name or value, or
   *     a colon in a name
   */
  byte[] head() throws IOException {
    StringBuilder sb = new StringBuilder(512);
    sb.append(method).append(' ').append(target()).append(" HTTP/1.1\r\n");
    for (Map.Entry<String, String> h : headers.entrySet()) {
      String name = h.getKey();
      String value = h.getValue();
      if (breaksLine(name) || breaksLine(value) || name.indexOf(':') >= 0) {
        // never let a header end the head early: it could write a request of its own
        throw new IOException("Header " + name.trim() + " holds a line break, or a colon in its name");
      }
      sb.append(name).append(": ").append(value).append("\r\n");
    }
    return sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private static boolean breaksLine(String s) {
    return s.indexOf('\r') >= 0 || s.indexOf('\n') >= 0;
  }

  /**
   * Percent-encodes as S3's SigV4 expects: every byte of the UTF-8 form except the unreserved
   * characters {@code A-Z a-z 0-9 - . _ ~}, and '/' too unless it is kept for paths.
   *
   * @param s the text
   * @param keepSlash true for a path
   * @return the encoded text
   */
  static String encode(String s, boolean keepSlash) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    StringBuilder sb = new StringBuilder(bytes.length + 16);
    for (byte b : bytes) {
      int c = b & 0xff;
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
          || c == '-' || c == '.' || c == '_' || c == '~' || (keepSlash && c == '/')) {
        sb.append((char) c);
      } else {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    // no headers: they carry the signature and may carry a session token
    return method + " " + host + ":" + port + path;
  }
}
