package dev.dtap.commit.s3;

import dev.dtap.commit.store.PartData;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One keep-alive HTTP/1.1 connection of {@link DirectTransport}: a plain TCP socket, written
 * without an intermediate buffer so that a part's body leaves in the part's own blocks, one system
 * call each.
 *
 * <p>Used by one request at a time: the pool hands it out and takes it back (see {@link
 * ConnectionPool}). {@link #closeSocket()} may be called from any thread, to abort.
 */
final class Http1Connection {
  private final String endpoint;
  private final Socket socket;
  private final BufferedInputStream in;
  private final OutputStream out;
  private final int readTimeoutMillis;
  private final AtomicBoolean leased = new AtomicBoolean();
  private long idleSinceNanos;
  private boolean pooled;
  private boolean served;

  private Http1Connection(String endpoint, Socket socket, int readTimeoutMillis) throws IOException {
    this.endpoint = endpoint;
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream(), 8 << 10);
    this.out = socket.getOutputStream();
    this.readTimeoutMillis = readTimeoutMillis;
  }

  /**
   * Connects.
   *
   * @param host the host
   * @param port the port
   * @param connectTimeoutMillis how long connecting may take
   * @param readTimeoutMillis how long a read may wait for the server
   * @return a new connection
   * @throws IOException naming the endpoint if it cannot be reached
   */
  static Http1Connection open(String host, int port, int connectTimeoutMillis, int readTimeoutMillis)
      throws IOException {
    String endpoint = host + ":" + port;
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.setKeepAlive(true);
      s.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
      s.setSoTimeout(readTimeoutMillis);
      return new Http1Connection(endpoint, s, readTimeoutMillis);
    } catch (IOException e) {
      s.close();
      throw new IOException("Cannot connect to " + endpoint + ": " + e.getMessage(), e);
    }
  }

  String endpoint() {
    return endpoint;
  }

  /** Marks the connection handed out by the pool. */
  void beginLease() {
    served = pooled;
    leased.set(true);
  }

  /** @return true once per lease: when the connection goes back to the pool or is closed */
  boolean endLease() {
    return leased.compareAndSet(true, false);
  }

  /** @return whether this connection served a request before the current one */
  boolean wasReused() {
    return served;
  }

  void markIdle() {
    pooled = true;
    idleSinceNanos = System.nanoTime();
  }

  long idleNanos(long now) {
    return now - idleSinceNanos;
  }

  /**
   * Writes a request line and headers.
   *
   * @param head the bytes, ending with the empty line
   * @throws IOException if the connection fails
   */
  void writeHead(byte[] head) throws IOException {
    out.write(head);
  }

  /**
   * Sends a request body in the part's own blocks, one system call each, and flushes.
   *
   * @param body the body, or null for none
   * @throws IOException if the connection fails, or the body holds more or fewer bytes than its
   *     length (the Content-Length sent)
   */
  void sendBody(PartData body) throws IOException {
    if (body != null) {
      long length = body.length();
      long[] sent = {0};
      body.forEachBlock(
          (block, offset, n) -> {
            if (sent[0] + n > length) {
              throw new IOException("Request body for " + endpoint + " is longer than its " + length + " bytes");
            }
            out.write(block, offset, n);
            sent[0] += n;
          });
      if (sent[0] < length) {
        throw new EOFException(
            "Request body for " + endpoint + " ended after " + sent[0] + " of " + length + " bytes");
      }
    }
    out.flush();
  }

  /**
   * Waits for the first byte of a response, without consuming it.
   *
   * @param waitMillis how long to wait
   * @return true if a response began, false if none came in time
   * @throws IOException if the connection fails or the server closes it
   */
  boolean responseStartsWithin(int waitMillis) throws IOException {
    socket.setSoTimeout(waitMillis);
    try {
      in.mark(1);
      if (in.read() < 0) {
        throw new EOFException("Connection to " + endpoint + " closed by the server");
      }
      in.reset();
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } finally {
      socket.setSoTimeout(readTimeoutMillis);
    }
  }

  /**
   * Whether an idle connection can no longer carry a request: the server closed it, or sent
   * something no request asked for. Waits a millisecond at most.
   *
   * @return true if the connection must be closed
   */
  boolean isStale() {
    try {
      if (in.available() > 0) {
        return true;
      }
      return responseStartsWithin(1);
    } catch (IOException e) {
      return true;
    }
  }

  ResponseHead readHead() throws IOException {
    return ResponseHead.read(in, endpoint);
  }

  /** @return the buffered input, for response bodies */
  InputStream input() {
    return in;
  }

  /** Closes the socket; safe from any thread and more than once. */
  void closeSocket() {
    try {
      socket.close();
    } catch (IOException e) {
      // nothing more to release
    }
  }

  @Override
  public String toString() {
    return "Http1Connection{" + endpoint + (socket.isClosed() ? ", closed" : "") + "}";
  }
}
