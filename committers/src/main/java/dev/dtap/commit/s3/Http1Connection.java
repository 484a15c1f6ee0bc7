package dev.dtap.commit.s3;

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
 * One keep-alive HTTP/1.1 connection of {@link DirectPartTransport}: a plain TCP socket, written
 * without an intermediate buffer so that a part's body leaves in blocks of {@link #SEND_BLOCK}
 * bytes, one system call each.
 *
 * <p>Used by one request at a time: the pool hands it out and takes it back (see {@link
 * ConnectionPool}). {@link #closeSocket()} may be called from any thread, to abort.
 */
final class Http1Connection {
  /** Body bytes per socket write: large enough that system calls cost nothing next to copying. */
  static final int SEND_BLOCK = 256 << 10;

  private final String endpoint;
  private final Socket socket;
  private final BufferedInputStream in;
  private final OutputStream out;
  private final int readTimeoutMillis;
  private final AtomicBoolean leased = new AtomicBoolean();
  private byte[] sendBuffer;
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
   * Sends exactly {@code length} bytes of a request body, in blocks of up to {@link #SEND_BLOCK}.
   *
   * @param body where the bytes come from
   * @param length the Content-Length sent
   * @throws IOException if the connection fails or the body holds fewer bytes
   */
  void sendBody(InputStream body, long length) throws IOException {
    int size = (int) Math.min(SEND_BLOCK, Math.max(1, length));
    if (sendBuffer == null || sendBuffer.length < size) {
      sendBuffer = new byte[size];
    }
    byte[] buf = sendBuffer;
    long left = length;
    while (left > 0) {
      int want = (int) Math.min(buf.length, left);
      int got = 0;
      while (got < want) {
        int n = body.read(buf, got, want - got);
        if (n < 0) {
          throw new EOFException(
              "Request body for " + endpoint + " ended after " + (length - left + got) + " of "
                  + length + " bytes");
        }
        got += n;
      }
      out.write(buf, 0, got);
      left -= got;
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
