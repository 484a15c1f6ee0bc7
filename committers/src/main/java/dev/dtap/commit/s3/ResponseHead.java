package dev.dtap.commit.s3;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The status line and headers of one HTTP/1.1 response, as {@link DirectTransport} reads them
 * off the connection. Immutable.
 */
final class ResponseHead {
  /** Longest status or header line accepted: S3 headers are short; a longer line is not HTTP. */
  private static final int MAX_LINE = 16 << 10;
  private static final int MAX_HEADERS = 256;

  private final int status;
  private final String reason;
  private final Map<String, List<String>> headers;

  private ResponseHead(int status, String reason, Map<String, List<String>> headers) {
    this.status = status;
    this.reason = reason;
    this.headers = headers;
  }

  /**
   * Reads a response head.
   *
   * @param in the connection's input, positioned at a status line
   * @param where the endpoint, for messages
   * @return the head
   * @throws EOFException if the connection closes before a complete head
   * @throws IOException if the bytes are not an HTTP/1.x response head
   */
  static ResponseHead read(InputStream in, String where) throws IOException {
    String statusLine = line(in, where);
    if (statusLine == null) {
      throw new EOFException("Connection to " + where + " closed before a response");
    }
    // "HTTP/1.1 200 OK"; the reason phrase may be empty or missing
    if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12 || statusLine.charAt(8) != ' ') {
      throw new IOException("Not an HTTP/1.x status line from " + where + ": " + printable(statusLine));
    }
    int status;
    try {
      status = Integer.parseInt(statusLine.substring(9, 12));
    } catch (NumberFormatException e) {
      throw new IOException("Bad status code from " + where + ": " + printable(statusLine), e);
    }
    String reason = statusLine.length() > 13 ? statusLine.substring(13) : "";
    Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    int count = 0;
    while (true) {
      String h = line(in, where);
      if (h == null) {
        throw new EOFException("Connection to " + where + " closed inside a response head");
      }
      if (h.isEmpty()) {
        break;
      }
      if (++count > MAX_HEADERS) {
        throw new IOException("More than " + MAX_HEADERS + " response headers from " + where);
      }
      int colon = h.indexOf(':');
      if (colon <= 0) {
        throw new IOException("Bad response header from " + where + ": " + printable(h));
      }
      String name = h.substring(0, colon).trim();
      headers.computeIfAbsent(name, k -> new ArrayList<>(1)).add(h.substring(colon + 1).trim());
    }
    for (Map.Entry<String, List<String>> e : headers.entrySet()) {
      e.setValue(Collections.unmodifiableList(e.getValue()));
    }
    return new ResponseHead(status, reason, Collections.unmodifiableMap(headers));
  }

  /**
   * Reads one CRLF-terminated line in ISO-8859-1 (a bare LF is accepted too).
   *
   * @param in the connection's input
   * @param where the endpoint, for messages
   * @return the line without its terminator; null at end of stream before any byte
   * @throws IOException if the line is too long or the stream ends inside it
   */
  static String line(InputStream in, String where) throws IOException {
    StringBuilder sb = new StringBuilder(64);
    int c;
    while ((c = in.read()) >= 0) {
      if (c == '\n') {
        int n = sb.length();
        return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
      }
      if (sb.length() == MAX_LINE) {
        throw new IOException("Response line from " + where + " longer than " + MAX_LINE + " bytes");
      }
      sb.append((char) c);
    }
    if (sb.length() > 0) {
      throw new EOFException("Connection to " + where + " closed inside a response line");
    }
    return null;
  }

  private static String printable(String s) {
    String cut = s.length() > 80 ? s.substring(0, 80) + "..." : s;
    return cut.replaceAll("[^\\x20-\\x7e]", "?");
  }

  int status() {
    return status;
  }

  String reason() {
    return reason;
  }

  /** @return every header, names case-insensitive, values in arrival order */
  Map<String, List<String>> headers() {
    return headers;
  }

  Optional<String> first(String name) {
    List<String> v = headers.get(name);
    return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v.get(0));
  }

  boolean isInterim() {
    return status >= 100 && status < 200;
  }

  /** Whether the header's comma-separated values include a token, ignoring case. */
  boolean hasToken(String name, String token) {
    List<String> values = headers.get(name);
    if (values == null) {
      return false;
    }
    for (String v : values) {
      for (String t : v.split(",")) {
        if (t.trim().toLowerCase(Locale.ROOT).equals(token)) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "HTTP " + status + " " + reason;
  }
}
