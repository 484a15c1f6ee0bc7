package dev.dtap.commit.s3;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullResponse;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * The S3 client's HTTP transport for part uploads over plain {@code http}
 * ({@code fs.dtap.committer.part.transport=direct}); every other request goes to the SDK's own
 * client it wraps.
 *
 * <p>Why: a part is megabytes, and the SDK's Apache client sends a body four kilobytes per system
 * call, which on a store near the compute hosts costs the client about as much processor time as
 * the bytes themselves. This transport sends the request the SDK built and signed, byte for byte,
 * over a keep-alive connection, writing the body in blocks of {@link Http1Connection#SEND_BLOCK};
 * the response goes back to the SDK, which parses it, classifies errors and retries as ever.
 *
 * <p>It honours {@code Expect: 100-continue} (which the SDK sends with every part): the body goes
 * only after the store's interim answer, or after {@code continueWaitMillis} without one, so a
 * refused part (an unknown upload, a bad signature) costs no data. A connection the store closed
 * while it sat idle is found before the body goes and the request is sent again on a new one; a
 * failure after the body started is the SDK's to retry.
 *
 * <p>Thread-safe.
 */
final class DirectPartTransport implements SdkHttpClient {
  /** How long a part waits for 100 Continue before its body goes anyway, as Apache's client. */
  static final int CONTINUE_WAIT_MILLIS = 3000;

  private final SdkHttpClient sdk;
  private final ConnectionPool pool;
  private final int continueWaitMillis;

  /**
   * @param sdk the SDK's client, for every request but part uploads over http; owned from now on
   * @param pool connections for part uploads; owned from now on
   * @param continueWaitMillis how long to wait for 100 Continue
   */
  DirectPartTransport(SdkHttpClient sdk, ConnectionPool pool, int continueWaitMillis) {
    this.sdk = sdk;
    this.pool = pool;
    this.continueWaitMillis = continueWaitMillis;
  }

  /**
   * Whether this transport sends a request itself: a part upload over plain http with a body of
   * declared length (the SDK always declares it for parts).
   *
   * @param request the request
   * @return true to send it directly
   */
  static boolean sendsDirectly(HttpExecuteRequest request) {
    SdkHttpRequest http = request.httpRequest();
    return UnsignedPartSigning.isPlainPartUpload(http)
        && request.contentStreamProvider().isPresent()
        && contentLength(http) >= 0
        && http.firstMatchingHeader("Transfer-Encoding").isEmpty();
  }

  private static long contentLength(SdkHttpRequest http) {
    Optional<String> v = http.firstMatchingHeader("Content-Length");
    if (v.isEmpty()) {
      return -1;
    }
    try {
      return Long.parseLong(v.get().trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    return sendsDirectly(request) ? new Exchange(request) : sdk.prepareRequest(request);
  }

  @Override
  public String clientName() {
    return "DtapDirectParts";
  }

  @Override
  public void close() {
    pool.close();
    sdk.close();
  }

  /**
   * The request line and headers as the SDK built and signed them, with a Host header if the SDK
   * left it to the transport.
   */
  static byte[] head(SdkHttpRequest http) throws IOException {
    URI uri = http.getUri();
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    StringBuilder sb = new StringBuilder(512);
    sb.append(http.method().name()).append(' ').append(path);
    if (uri.getRawQuery() != null) {
      sb.append('?').append(uri.getRawQuery());
    }
    sb.append(" HTTP/1.1\r\n");
    boolean host = false;
    for (Map.Entry<String, List<String>> h : http.headers().entrySet()) {
      host |= h.getKey().equalsIgnoreCase("Host");
      for (String v : h.getValue()) {
        header(sb, h.getKey(), v);
      }
    }
    if (!host) {
      boolean standardPort = http.port() == 80;
      header(sb, "Host", standardPort ? http.host() : http.host() + ":" + http.port());
    }
    return sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private static void header(StringBuilder sb, String name, String value) throws IOException {
    if (breaksLine(value) || breaksLine(name) || name.indexOf(':') >= 0) {
      // never let a header end the head early: it could write a request of its own
      throw new IOException("Header " + name.trim() + " holds a line break, or a colon in its name");
    }
    sb.append(name).append(": ").append(value).append("\r\n");
  }

  private static boolean breaksLine(String s) {
    return s.indexOf('\r') >= 0 || s.indexOf('\n') >= 0;
  }

  /** One part upload: request out, response head in, body handed to the SDK. */
  private final class Exchange implements ExecutableHttpRequest {
    private final HttpExecuteRequest request;
    private volatile Http1Connection current;
    private volatile boolean aborted;

    Exchange(HttpExecuteRequest request) {
      this.request = request;
    }

    @Override
    public HttpExecuteResponse call() throws IOException {
      SdkHttpRequest http = request.httpRequest();
      byte[] head = head(http);
      long length = contentLength(http);
      boolean expectContinue =
          http.firstMatchingHeader("Expect").map(v -> v.trim().equalsIgnoreCase("100-continue")).orElse(false);
      ContentStreamProvider content = request.contentStreamProvider().orElseThrow();
      while (true) {
        Http1Connection c = pool.lease(http.host(), http.port());
        current = c;
        boolean bodySent = false;
        try {
          checkAborted();
          c.writeHead(head);
          if (expectContinue && c.responseStartsWithin(continueWaitMillis)) {
            ResponseHead early = c.readHead();
            while (early.isInterim() && early.status() != 100) {
              early = c.readHead();
            }
            if (!early.isInterim()) {
              // refused before the body: the store will not read it, so the connection is spent
              return respond(c, early, false);
            }
          }
          bodySent = true;
          try (InputStream body = content.newStream()) {
            c.sendBody(body, length);
          }
          ResponseHead h = c.readHead();
          while (h.isInterim()) {
            h = c.readHead();
          }
          return respond(c, h, true);
        } catch (IOException | RuntimeException e) {
          current = null;
          pool.release(c, false);
          checkAborted();
          if (!bodySent && c.wasReused() && e instanceof IOException) {
            // the store closed the idle connection; nothing of this request reached it
            continue;
          }
          throw e;
        }
      }
    }

    private HttpExecuteResponse respond(Http1Connection c, ResponseHead h, boolean keepAlive)
        throws IOException {
      current = null;
      SdkHttpFullResponse response =
          SdkHttpFullResponse.builder()
              .statusCode(h.status())
              .statusText(h.reason())
              .headers(h.headers())
              .build();
      Optional<ResponseBody> body = ResponseBody.of(h, c, pool, keepAlive);
      HttpExecuteResponse.Builder b = HttpExecuteResponse.builder().response(response);
      body.ifPresent(in -> b.responseBody(AbortableInputStream.create(in, in::abort)));
      return b.build();
    }

    private void checkAborted() throws InterruptedIOException {
      if (aborted) {
        throw new InterruptedIOException("Part upload to " + request.httpRequest().host() + " aborted");
      }
    }

    @Override
    public void abort() {
      aborted = true;
      Http1Connection c = current;
      if (c != null) {
        c.closeSocket();
      }
    }
  }
}
