package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;

/**
 * The direct part transport against a scripted loopback server: keep-alive reuse, 100 Continue and
 * its absence, answers before the body, chunked answers, connections the store closed, short
 * bodies, aborts and the connection limit. What it sends is checked byte for byte on the server.
 */
class ITestDirectPartTransport {
  private static final String OK = "HTTP/1.1 200 OK\r\nETag: \"e1\"\r\nContent-Length: 0\r\n\r\n";
  private static final String CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n";

  private final List<AutoCloseable> open = new ArrayList<>();
  private final List<HttpExecuteRequest> toSdk = new CopyOnWriteArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private ScriptedHttpServer server(ScriptedHttpServer.Script script) throws IOException {
    ScriptedHttpServer s = new ScriptedHttpServer(script);
    open.add(s);
    return s;
  }

  private DirectPartTransport transport(int maxConnections, long acquireMillis, int continueMillis) {
    SdkHttpClient sdk =
        new SdkHttpClient() {
          @Override
          public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
            toSdk.add(request);
            throw new UnsupportedOperationException("the SDK's client is not under test");
          }

          @Override
          public void close() {}
        };
    DirectPartTransport t =
        new DirectPartTransport(sdk, new ConnectionPool(maxConnections, 2000, 5000, acquireMillis), continueMillis);
    open.add(t);
    return t;
  }

  private DirectPartTransport transport() {
    return transport(4, 2000, DirectPartTransport.CONTINUE_WAIT_MILLIS);
  }

  private static HttpExecuteRequest part(ScriptedHttpServer s, ContentStreamProvider body, long length, boolean expect) {
    return part("http://127.0.0.1:" + s.port(), body, length, expect);
  }

  private static HttpExecuteRequest part(String base, ContentStreamProvider body, long length, boolean expect) {
    SdkHttpFullRequest.Builder r =
        SdkHttpFullRequest.builder()
            .method(SdkHttpMethod.PUT)
            .uri(URI.create(base + "/bucket/dir/key%20one"))
            .putRawQueryParameter("partNumber", "1")
            .putRawQueryParameter("uploadId", "u/1+=")
            .putHeader("Content-Length", Long.toString(length));
    if (expect) {
      r.putHeader("Expect", "100-continue");
    }
    return HttpExecuteRequest.builder().request(r.build()).contentStreamProvider(body).build();
  }

  private static HttpExecuteRequest part(ScriptedHttpServer s, byte[] body) {
    return part(s, ContentStreamProvider.fromByteArray(body), body.length, true);
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static String bodyText(HttpExecuteResponse r) throws IOException {
    try (InputStream in = r.responseBody().orElseThrow()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Serves every request on a connection: 100 Continue when asked, the body, then {@code answer}. */
  private static ScriptedHttpServer.Script keepServing(String answer) {
    return x -> {
      while (x.takeRequest() != null) {
        x.send(answer);
      }
    };
  }

  @Test
  void partsTravelByteForByteOnOneKeepAliveConnection() throws Exception {
    ScriptedHttpServer s = server(keepServing(OK));
    DirectPartTransport t = transport();
    List<byte[]> sent = List.of(random(600 << 10, 1), random(1, 2), random(Http1Connection.SEND_BLOCK * 3, 3));
    for (byte[] b : sent) {
      HttpExecuteResponse r = t.prepareRequest(part(s, b)).call();
      assertThat(r.httpResponse().statusCode()).isEqualTo(200);
      assertThat(r.httpResponse().firstMatchingHeader("etag")).hasValue("\"e1\"");
      assertThat(r.responseBody()).isEmpty();
    }
    assertThat(s.bodies).hasSize(3);
    for (int i = 0; i < sent.size(); i++) {
      assertThat(s.bodies.get(i)).isEqualTo(sent.get(i));
    }
    assertThat(s.connections()).isEqualTo(1);
    String requestLine = s.heads.get(0).split("\r\n")[0];
    assertThat(requestLine).startsWith("PUT /bucket/dir/key%20one?").endsWith(" HTTP/1.1");
    assertThat(URLDecoder.decode(requestLine.split(" ")[1], StandardCharsets.UTF_8))
        .contains("uploadId=u/1+=")
        .contains("partNumber=1");
    assertThat(ScriptedHttpServer.header(s.heads.get(0), "host")).isEqualTo("127.0.0.1:" + s.port());
    assertThat(s.failures).isEmpty();
  }

  @Test
  void aStoreThatNeverSends100ContinueGetsTheBodyAfterTheWait() throws Exception {
    ScriptedHttpServer s =
        server(
            x -> {
              x.readBody(x.readHead());
              x.send(OK);
            });
    byte[] body = random(70_000, 4);
    HttpExecuteResponse r = transport(4, 2000, 200).prepareRequest(part(s, body)).call();
    assertThat(r.httpResponse().statusCode()).isEqualTo(200);
    assertThat(s.bodies).hasSize(1);
    assertThat(s.bodies.get(0)).isEqualTo(body);
  }

  @Test
  void anAnswerBeforeTheBodyReachesTheSdkAndNoBodyIsSent() throws Exception {
    List<Integer> bytesAfterAnswer = new CopyOnWriteArrayList<>();
    String xml = "<Error><Code>NoSuchUpload</Code></Error>";
    ScriptedHttpServer s =
        server(
            x -> {
              x.readHead();
              x.send("HTTP/1.1 404 Not Found\r\nContent-Type: application/xml\r\nContent-Length: "
                  + xml.length() + "\r\n\r\n" + xml);
              bytesAfterAnswer.add(x.countUntilClosed());
            });
    DirectPartTransport t = transport();
    for (int i = 0; i < 2; i++) {
      HttpExecuteResponse r = t.prepareRequest(part(s, random(1 << 20, 5))).call();
      assertThat(r.httpResponse().statusCode()).isEqualTo(404);
      assertThat(bodyText(r)).isEqualTo(xml);
    }
    assertThat(s.connections()).as("a refused request's connection is not reused").isEqualTo(2);
    waitFor(() -> bytesAfterAnswer.size() == 2);
    assertThat(bytesAfterAnswer).as("closed without a byte of the body").containsExactly(0, 0);
  }

  @Test
  void aChunkedAnswerIsReadWholeAndTheConnectionReused() throws Exception {
    String chunked =
        "HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\n<Erro\r\n3;ext=1\r\nr/>\r\n0\r\nX-Trailer: t\r\n\r\n";
    ScriptedHttpServer s = server(keepServing(chunked));
    DirectPartTransport t = transport();
    for (int i = 0; i < 3; i++) {
      HttpExecuteResponse r = t.prepareRequest(part(s, random(1000, i))).call();
      assertThat(r.httpResponse().statusCode()).isEqualTo(500);
      assertThat(bodyText(r)).isEqualTo("<Error/>");
    }
    assertThat(s.connections()).isEqualTo(1);
  }

  @Test
  void aConnectionTheStoreClosedIsReplacedBeforeTheBodyGoes() throws Exception {
    ScriptedHttpServer s =
        server(
            x -> {
              x.takeRequest();
              x.send(OK);
              x.close(); // as a store closes a keep-alive connection it considers idle
            });
    DirectPartTransport t = transport();
    byte[] first = random(1000, 6);
    byte[] second = random(300_000, 7);
    assertThat(t.prepareRequest(part(s, first)).call().httpResponse().statusCode()).isEqualTo(200);
    Thread.sleep(100);
    assertThat(t.prepareRequest(part(s, second)).call().httpResponse().statusCode()).isEqualTo(200);
    assertThat(s.connections()).isEqualTo(2);
    assertThat(s.bodies).hasSize(2);
    assertThat(s.bodies.get(1)).isEqualTo(second);
  }

  @Test
  void anIdleConnectionTheStoreClosedIsFoundEvenWithoutExpectContinue() throws Exception {
    ScriptedHttpServer s =
        server(
            x -> {
              x.takeRequest();
              x.send(OK);
              x.close();
            });
    DirectPartTransport t = transport();
    byte[] body = random(200_000, 8);
    HttpExecuteRequest noExpect = part(s, ContentStreamProvider.fromByteArray(body), body.length, false);
    assertThat(t.prepareRequest(noExpect).call().httpResponse().statusCode()).isEqualTo(200);
    // older than the check threshold: the pool looks before it hands the connection out
    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(ConnectionPool.CHECK_AFTER_NANOS) + 300);
    assertThat(t.prepareRequest(noExpect).call().httpResponse().statusCode()).isEqualTo(200);
    assertThat(s.connections()).isEqualTo(2);
    assertThat(s.bodies).hasSize(2);
  }

  @Test
  void aBodyShorterThanItsLengthFailsAndClosesTheConnection() throws Exception {
    List<Integer> received = new CopyOnWriteArrayList<>();
    ScriptedHttpServer s =
        server(
            x -> {
              x.readHead();
              x.send(CONTINUE);
              received.add(x.countUntilClosed());
            });
    ContentStreamProvider tenBytes = () -> new ByteArrayInputStream(new byte[10]);
    assertThatThrownBy(() -> transport().prepareRequest(part(s, tenBytes, 20, true)).call())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("ended after 10 of 20 bytes")
        .hasMessageContaining("127.0.0.1:" + s.port());
    waitFor(() -> received.size() == 1);
    assertThat(received.get(0))
        .as("the connection is closed before the store has a whole body")
        .isBetween(0, 19);
  }

  @Test
  void onlyPartUploadsOverPlainHttpAreSentDirectly() throws Exception {
    DirectPartTransport t = transport();
    ContentStreamProvider body = ContentStreamProvider.fromByteArray(new byte[4]);
    HttpExecuteRequest tls = part("https://127.0.0.1:1", body, 4, true);
    HttpExecuteRequest record =
        HttpExecuteRequest.builder()
            .request(
                SdkHttpFullRequest.builder()
                    .method(SdkHttpMethod.PUT)
                    .uri(URI.create("http://127.0.0.1:1/bucket/record"))
                    .putHeader("Content-Length", "4")
                    .build())
            .contentStreamProvider(body)
            .build();
    HttpExecuteRequest get =
        HttpExecuteRequest.builder()
            .request(
                SdkHttpFullRequest.builder()
                    .method(SdkHttpMethod.GET)
                    .uri(URI.create("http://127.0.0.1:1/bucket/key"))
                    .putRawQueryParameter("partNumber", "1")
                    .putRawQueryParameter("uploadId", "u")
                    .build())
            .build();
    for (HttpExecuteRequest r : List.of(tls, record, get)) {
      assertThat(DirectPartTransport.sendsDirectly(r)).isFalse();
      assertThatThrownBy(() -> t.prepareRequest(r)).isInstanceOf(UnsupportedOperationException.class);
    }
    assertThat(toSdk).containsExactly(tls, record, get);
    assertThat(DirectPartTransport.sendsDirectly(part("http://127.0.0.1:1", body, 4, true))).isTrue();
  }

  @Test
  void aHeaderValueWithALineBreakIsRefusedBeforeAnythingIsSent() throws Exception {
    ScriptedHttpServer s = server(keepServing(OK));
    HttpExecuteRequest r = part(s, new byte[4]);
    HttpExecuteRequest evil =
        HttpExecuteRequest.builder()
            .request(r.httpRequest().toBuilder().putHeader("x-amz-meta-a", "b\r\nX-Injected: 1").build())
            .contentStreamProvider(r.contentStreamProvider().orElseThrow())
            .build();
    assertThatThrownBy(() -> transport().prepareRequest(evil).call())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("x-amz-meta-a");
    assertThat(s.connections()).isZero();
  }

  /** Runs a request on another thread. */
  private static CompletableFuture<HttpExecuteResponse> inBackground(ExecutableHttpRequest call) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return call.call();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
  }

  /** A server's pause: until the test lets it go on, at most 30 s. */
  private static void hold(CountDownLatch release) {
    try {
      release.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void abortEndsACallThatWaitsForTheStore() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    ScriptedHttpServer s =
        server(
            x -> {
              x.takeRequest();
              hold(release); // never answers while the test runs
            });
    ExecutableHttpRequest call = transport().prepareRequest(part(s, random(5000, 9)));
    CompletableFuture<HttpExecuteResponse> running = inBackground(call);
    waitFor(() -> s.bodies.size() == 1);
    long start = System.nanoTime();
    call.abort();
    assertThatThrownBy(() -> running.get(10, TimeUnit.SECONDS))
        .hasRootCauseInstanceOf(IOException.class);
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(5);
    release.countDown();
  }

  @Test
  void connectionsInUseAreBoundedAndAWaitTooLongFailsNamingTheKey() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger served = new AtomicInteger();
    ScriptedHttpServer s =
        server(
            x -> {
              x.takeRequest();
              if (served.incrementAndGet() == 1) {
                hold(release);
              }
              x.send(OK);
            });
    DirectPartTransport t = transport(1, 300, DirectPartTransport.CONTINUE_WAIT_MILLIS);
    CompletableFuture<HttpExecuteResponse> busy = inBackground(t.prepareRequest(part(s, random(100, 10))));
    waitFor(() -> s.bodies.size() == 1);
    assertThatThrownBy(() -> t.prepareRequest(part(s, random(100, 11))).call())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("fs.s3a.connection.maximum")
        .hasMessageContaining("all 1");
    release.countDown();
    assertThat(busy.get(10, TimeUnit.SECONDS).httpResponse().statusCode()).isEqualTo(200);
    assertThat(t.prepareRequest(part(s, random(100, 12))).call().httpResponse().statusCode())
        .as("the connection is free again")
        .isEqualTo(200);
  }

  @Test
  void aConnectionTheStoreMeansToCloseIsNotReused() throws Exception {
    ScriptedHttpServer s =
        server(
            x -> {
              x.takeRequest();
              x.send("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
              x.countUntilClosed();
            });
    DirectPartTransport t = transport();
    for (int i = 0; i < 2; i++) {
      assertThat(t.prepareRequest(part(s, random(10, i))).call().httpResponse().statusCode()).isEqualTo(200);
    }
    assertThat(s.connections()).isEqualTo(2);
  }

  @Test
  void aMalformedAnswerFailsNamingTheEndpoint() throws Exception {
    ScriptedHttpServer s =
        server(
            x -> {
              x.readHead();
              x.send("SSH-2.0-OpenSSH\r\n\r\n");
            });
    assertThatThrownBy(() -> transport().prepareRequest(part(s, new byte[3])).call())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Not an HTTP/1.x status line from 127.0.0.1:" + s.port());
  }

  @Test
  void anEndpointThatIsNotListeningFailsNamingIt() throws Exception {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    HttpExecuteRequest r = part("http://127.0.0.1:" + port, ContentStreamProvider.fromByteArray(new byte[1]), 1, true);
    assertThatThrownBy(() -> transport().prepareRequest(r).call())
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(InterruptedIOException.class)
        .hasMessageContaining("Cannot connect to 127.0.0.1:" + port);
  }

  private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 10 s");
      }
      Thread.sleep(10);
    }
  }
}
