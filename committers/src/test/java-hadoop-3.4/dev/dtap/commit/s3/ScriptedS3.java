package dev.dtap.commit.s3;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A loopback S3 stand-in for unit tests of dtap's own requests: it keeps every request it gets
 * (method, path and query, headers, body) and answers with the next scripted answer, or with a
 * plain success for the operation (an upload id, an ETag that is the body's MD5). It checks no
 * signature: MinIO does that in the integration tests. Thread-safe.
 */
final class ScriptedS3 implements AutoCloseable {
  /** A request as received. */
  static final class Request {
    final String method;
    final String target;
    final Map<String, String> headers;
    final byte[] body;

    Request(String method, String target, Map<String, String> headers, byte[] body) {
      this.method = method;
      this.target = target;
      this.headers = headers;
      this.body = body;
    }

    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      return method + " " + target;
    }
  }

  /** A scripted answer. */
  static final class Answer {
    final int status;
    final Map<String, String> headers = new TreeMap<>();
    final String body;

    Answer(int status, String body) {
      this.status = status;
      this.body = body;
    }

    Answer header(String name, String value) {
      headers.put(name, value);
      return this;
    }

    static Answer error(int status, String code) {
      return new Answer(
          status,
          "<Error><Code>" + code + "</Code><Message>scripted " + code + "</Message></Error>");
    }
  }

  private final HttpServer server;
  private final List<Request> requests = new ArrayList<>();
  private final Deque<Answer> script = new ArrayDeque<>();
  private boolean checkClock;

  ScriptedS3() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.createContext("/", this::handle);
    server.start();
  }

  /**
   * @return the endpoint, {@code http://127.0.0.1:port}
   */
  String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Queues answers for the next requests, in order. */
  synchronized ScriptedS3 then(Answer... answers) {
    for (Answer a : answers) {
      script.add(a);
    }
    return this;
  }

  /**
   * Refuses requests signed more than 15 minutes away from this host's clock with 403
   * RequestTimeTooSkewed, as S3 does.
   */
  synchronized ScriptedS3 checkingClock() {
    checkClock = true;
    return this;
  }

  synchronized List<Request> requests() {
    return new ArrayList<>(requests);
  }

  synchronized Request last() {
    return requests.get(requests.size() - 1);
  }

  private void handle(HttpExchange x) throws IOException {
    byte[] body = x.getRequestBody().readAllBytes();
    Map<String, String> headers = new TreeMap<>();
    x.getRequestHeaders()
        .forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
    Request r =
        new Request(
            x.getRequestMethod(),
            x.getRequestURI().getRawPath()
                + (x.getRequestURI().getRawQuery() == null
                    ? ""
                    : "?" + x.getRequestURI().getRawQuery()),
            headers,
            body);
    Answer a;
    synchronized (this) {
      requests.add(r);
      a =
          checkClock && skewed(r)
              ? Answer.error(403, "RequestTimeTooSkewed")
              : script.isEmpty() ? success(r) : script.poll();
    }
    a.headers.forEach((k, v) -> x.getResponseHeaders().add(k, v));
    byte[] out = a.body.getBytes(StandardCharsets.UTF_8);
    x.sendResponseHeaders(a.status, out.length == 0 ? -1 : out.length);
    try (OutputStream o = x.getResponseBody()) {
      o.write(out);
    }
  }

  private static Answer success(Request r) {
    String q = r.target.contains("?") ? r.target.substring(r.target.indexOf('?') + 1) : "";
    if (r.method.equals("POST") && q.equals("uploads")) {
      return new Answer(
          200,
          "<InitiateMultipartUploadResult><UploadId>up+1/=</UploadId>"
              + "</InitiateMultipartUploadResult>");
    }
    if (r.method.equals("POST") && q.startsWith("uploadId=")) {
      return new Answer(
          200,
          "<CompleteMultipartUploadResult><ETag>\"done-1\"</ETag></CompleteMultipartUploadResult>");
    }
    return new Answer(200, "").header("ETag", "\"" + md5(r.body) + "\"");
  }

  private static boolean skewed(Request r) {
    java.time.Instant signed =
        java.time.ZonedDateTime.parse(
                r.header("x-amz-date"),
                java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                    .withZone(java.time.ZoneOffset.UTC))
            .toInstant();
    return Math.abs(java.time.Duration.between(signed, java.time.Instant.now()).toMinutes()) > 15;
  }

  static String md5(byte[] b) {
    try {
      StringBuilder sb = new StringBuilder();
      for (byte x : MessageDigest.getInstance("MD5").digest(b)) {
        sb.append(String.format(Locale.ROOT, "%02x", x));
      }
      return sb.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
