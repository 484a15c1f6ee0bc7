package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
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
import dev.dtap.commit.store.PartData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The direct transport against a scripted loopback server: keep-alive reuse, 100 Continue and its
 * absence, answers before the body, chunked answers, connections the store closed, short bodies,
 * aborts and the connection limit. What it sends is checked byte for byte on the server.
 */
class ITestDirectTransport {
  private static final String OK = "HTTP/1.1 200 OK\r\nETag: \"e1\"\r\nContent-Length: 0\r\n\r\n";
  private static final String CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n";

  private final List<AutoCloseable> open = new ArrayList<>();

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

  private DirectTransport transport(int maxConnections, long acquireMillis, int continueMillis) {
    DirectTransport t =
        new DirectTransport(new ConnectionPool(maxConnections, 2000, 5000, acquireMillis), continueMillis);
    open.add(t);
    return t;
  }

  private DirectTransport transport() {
    return transport(4, 2000, DirectTransport.CONTINUE_WAIT_MILLIS);
  }

  /** A request and its body. */
  private static final class Part {
    final DirectRequest request;
    final PartData body;

    Part(DirectRequest request, PartData body) {
      this.request = request;
      this.body = body;
    }

    DirectTransport.Exchange on(DirectTransport t) {
      return t.prepare(request, body);
    }
  }

  private static Part part(ScriptedHttpServer s, PartData body, boolean expect) {
    return part(s.port(), body, expect);
  }

  private static Part part(int port, PartData body, boolean expect) {
    DirectRequest r =
        new DirectRequest("PUT", "127.0.0.1", port, "/bucket/dir/key%20one")
            .query("partNumber", "1")
            .query("uploadId", "u/1+=");
    if (expect) {
      r.header("Expect", "100-continue");
    }
    return new Part(r, body);
  }

  private static Part part(ScriptedHttpServer s, byte[] body) {
    return part(s, bytes(body), true);
  }

  private static PartData bytes(byte[] b) {
    return PartData.of(List.of(b), b.length);
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static String bodyText(DirectTransport.Answer r) {
    return new String(r.body(), StandardCharsets.UTF_8);
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
    DirectTransport t = transport();
    List<byte[]> sent = List.of(random(600 << 10, 1), random(1, 2), random(3 << 20, 3));
    for (byte[] b : sent) {
      DirectTransport.Answer r = part(s, b).on(t).call();
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.header("etag")).hasValue("\"e1\"");
      assertThat(r.body()).isEmpty();
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
    DirectTransport.Answer r = part(s, body).on(transport(4, 2000, 200)).call();
    assertThat(r.status()).isEqualTo(200);
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
    DirectTransport t = transport();
    for (int i = 0; i < 2; i++) {
      DirectTransport.Answer r = part(s, random(1 << 20, 5)).on(t).call();
      assertThat(r.status()).isEqualTo(404);
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
    DirectTransport t = transport();
    for (int i = 0; i < 3; i++) {
      DirectTransport.Answer r = part(s, random(1000, i)).on(t).call();
      assertThat(r.status()).isEqualTo(500);
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
    DirectTransport t = transport();
    byte[] first = random(1000, 6);
    byte[] second = random(300_000, 7);
    assertThat(part(s, first).on(t).call().status()).isEqualTo(200);
    Thread.sleep(100);
    assertThat(part(s, second).on(t).call().status()).isEqualTo(200);
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
    DirectTransport t = transport();
    byte[] body = random(200_000, 8);
    Part noExpect = part(s, bytes(body), false);
    assertThat(noExpect.on(t).call().status()).isEqualTo(200);
    // older than the check threshold: the pool looks before it hands the connection out
    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(ConnectionPool.CHECK_AFTER_NANOS) + 300);
    assertThat(noExpect.on(t).call().status()).isEqualTo(200);
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
    PartData tenBytesOfTwenty =
        new PartData() {
          @Override
          public long length() {
            return 20;
          }

          @Override
          public InputStream open() {
            return new ByteArrayInputStream(new byte[10]);
          }
        };
    assertThatThrownBy(() -> part(s, tenBytesOfTwenty, true).on(transport()).call())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("ended after 10 of 20 bytes")
        .hasMessageContaining("127.0.0.1:" + s.port());
    waitFor(() -> received.size() == 1);
    assertThat(received.get(0))
        .as("the connection is closed before the store has a whole body")
        .isBetween(0, 19);
  }

  @Test
  void aHeaderValueWithALineBreakIsRefusedBeforeAnythingIsSent() throws Exception {
    ScriptedHttpServer s = server(keepServing(OK));
    Part evil = part(s, new byte[4]);
    evil.request.header("x-amz-meta-a", "b\r\nX-Injected: 1");
    assertThatThrownBy(() -> evil.on(transport()).call())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("x-amz-meta-a");
    assertThat(s.connections()).isZero();
  }

  /** Runs a request on another thread. */
  private static CompletableFuture<DirectTransport.Answer> inBackground(DirectTransport.Exchange call) {
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
    DirectTransport.Exchange call = part(s, random(5000, 9)).on(transport());
    CompletableFuture<DirectTransport.Answer> running = inBackground(call);
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
    DirectTransport t = transport(1, 300, DirectTransport.CONTINUE_WAIT_MILLIS);
    CompletableFuture<DirectTransport.Answer> busy = inBackground(part(s, random(100, 10)).on(t));
    waitFor(() -> s.bodies.size() == 1);
    assertThatThrownBy(() -> part(s, random(100, 11)).on(t).call())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("fs.s3a.connection.maximum")
        .hasMessageContaining("all 1");
    release.countDown();
    assertThat(busy.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
    assertThat(part(s, random(100, 12)).on(t).call().status())
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
    DirectTransport t = transport();
    for (int i = 0; i < 2; i++) {
      assertThat(part(s, random(10, i)).on(t).call().status()).isEqualTo(200);
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
    assertThatThrownBy(() -> part(s, new byte[3]).on(transport()).call())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Not an HTTP/1.x status line from 127.0.0.1:" + s.port());
  }

  @Test
  void anEndpointThatIsNotListeningFailsNamingIt() throws Exception {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Part r = part(port, bytes(new byte[1]), true);
    assertThatThrownBy(() -> r.on(transport()).call())
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
