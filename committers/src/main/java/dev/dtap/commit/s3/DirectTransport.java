package dev.dtap.commit.s3;

import dev.dtap.commit.store.PartData;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Optional;

/**
 * Sends {@link DirectRequest}s over keep-alive HTTP/1.1 connections of a {@link ConnectionPool}
 * and reads their answers whole (the answers of the requests dtap sends itself are a few hundred
 * bytes of XML at most).
 *
 * <p>Why not the SDK's Apache client: it sends a body four kilobytes per system call, and a part is
 * megabytes; here a body leaves in the part's own blocks, one system call each, with no copy in
 * between.
 *
 * <p>It honours {@code Expect: 100-continue}: the body goes only after the store's interim answer,
 * or after {@code continueWaitMillis} without one, so a refused part (an unknown upload, a bad
 * signature) costs no data. A connection the store closed while it sat idle is found before the
 * body goes and the request is sent again on a new one; any failure after the body started is the
 * caller's to retry.
 *
 * <p>Thread-safe.
 */
final class DirectTransport implements Closeable {
  /** How long a body waits for 100 Continue before it goes anyway, as Apache's client. */
  static final int CONTINUE_WAIT_MILLIS = 3000;
  /** The longest answer read: S3's answers to these requests are far shorter. */
  static final int MAX_ANSWER = 1 << 20;

  private final ConnectionPool pool;
  private final int continueWaitMillis;

  /**
   * @param pool the connections; owned from now on
   * @param continueWaitMillis how long to wait for 100 Continue
   */
  DirectTransport(ConnectionPool pool, int continueWaitMillis) {
    this.pool = pool;
    this.continueWaitMillis = continueWaitMillis;
  }

  /**
   * Prepares one request; {@link Exchange#call()} sends it.
   *
   * @param request the request; its {@code Content-Length} is set here, so sign it after this and
   *     before {@link Exchange#call()}, which sends its headers as they are then
   * @param body the body, or null for none
   * @return the exchange
   */
  Exchange prepare(DirectRequest request, PartData body) {
    request.header("content-length", Long.toString(body == null ? 0 : body.length()));
    return new Exchange(request, body);
  }

  @Override
  public void close() {
    pool.close();
  }

  /** A store's answer: status, headers, and the body read whole. Immutable. */
  static final class Answer {
    private final ResponseHead head;
    private final byte[] body;

    Answer(ResponseHead head, byte[] body) {
      this.head = head;
      this.body = body;
    }

    int status() {
      return head.status();
    }

    Optional<String> header(String name) {
      return head.first(name);
    }

    byte[] body() {
      return body;
    }
  }

  /** One request out, its answer in. */
  final class Exchange {
    private final DirectRequest request;
    private final PartData body;
    private volatile Http1Connection current;
    private volatile boolean aborted;

    private Exchange(DirectRequest request, PartData body) {
      this.request = request;
      this.body = body;
    }

    /**
     * Sends the request and reads the answer.
     *
     * @return the answer, whatever its status
     * @throws IOException if the exchange fails: no connection, a broken one, a malformed or too
     *     long answer, a body shorter than its length, or an abort
     */
    Answer call() throws IOException {
      byte[] head = request.head();
      boolean expectContinue = "100-continue".equalsIgnoreCase(String.valueOf(request.header("expect")).trim());
      while (true) {
        Http1Connection c = pool.lease(request.host(), request.port());
        current = c;
        boolean bodySent = false;
        try {
          checkAborted();
          c.writeHead(head);
          if (body != null && expectContinue && c.responseStartsWithin(continueWaitMillis)) {
            ResponseHead early = c.readHead();
            while (early.isInterim() && early.status() != 100) {
              early = c.readHead();
            }
            if (!early.isInterim()) {
              // refused before the body: the store will not read it, so the connection is spent
              return answer(c, early, false);
            }
          }
          bodySent = true;
          c.sendBody(body);
          ResponseHead h = c.readHead();
          while (h.isInterim()) {
            h = c.readHead();
          }
          return answer(c, h, true);
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

    private Answer answer(Http1Connection c, ResponseHead h, boolean keepAlive) throws IOException {
      Optional<ResponseBody> body = ResponseBody.of(h, c, pool, keepAlive);
      if (body.isEmpty()) {
        current = null;
        return new Answer(h, new byte[0]);
      }
      try (InputStream in = body.get()) {
        byte[] bytes = in.readNBytes(MAX_ANSWER + 1);
        if (bytes.length > MAX_ANSWER) {
          body.get().abort();
          throw new IOException(
              "Answer of " + c.endpoint() + " to " + request + " is longer than " + MAX_ANSWER + " bytes");
        }
        return new Answer(h, bytes);
      } finally {
        current = null;
      }
    }

    private void checkAborted() throws InterruptedIOException {
      if (aborted) {
        throw new InterruptedIOException(request + " aborted");
      }
    }

    /** Ends the exchange from another thread: the connection in use is closed. */
    void abort() {
      aborted = true;
      Http1Connection c = current;
      if (c != null) {
        c.closeSocket();
      }
    }
  }
}
