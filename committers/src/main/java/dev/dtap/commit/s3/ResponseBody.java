package dev.dtap.commit.s3;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * The body of one response on a {@link Http1Connection}, framed by Content-Length, by chunked
 * transfer coding, or by the end of the connection. Reading it to its end gives a keep-alive
 * connection back to the pool; closing it early drains a short rest (so the connection can be
 * reused) or closes the connection.
 *
 * <p>Not thread-safe, as input streams are not; {@link #abort()} may be called from any thread.
 */
final class ResponseBody extends InputStream {
  /** A rest this short is read off on close so that the connection stays usable. */
  private static final long DRAIN_LIMIT = 64 << 10;

  private enum Framing {
    LENGTH,
    CHUNKED,
    UNTIL_CLOSE
  }

  private final Http1Connection connection;
  private final ConnectionPool pool;
  private final InputStream in;
  private final Framing framing;
  private final boolean keepAlive;
  /** LENGTH: bytes left in the body; CHUNKED: bytes left in the current chunk. */
  private long remaining;
  private boolean done;

  private ResponseBody(
      Http1Connection connection, ConnectionPool pool, Framing framing, long remaining, boolean keepAlive) {
    this.connection = connection;
    this.pool = pool;
    this.in = connection.input();
    this.framing = framing;
    this.remaining = remaining;
    this.keepAlive = keepAlive && framing != Framing.UNTIL_CLOSE;
  }

  /**
   * The body of a response whose head was just read, or none when it has no body; then the
   * connection has already gone back to the pool.
   *
   * @param head the response head
   * @param connection where the body follows
   * @param pool the connection's pool
   * @param keepAlive whether the connection may carry another request once the body is read
   * @return the body, or empty for a response without one
   * @throws IOException if the framing headers are invalid
   */
  static Optional<ResponseBody> of(
      ResponseHead head, Http1Connection connection, ConnectionPool pool, boolean keepAlive)
      throws IOException {
    int status = head.status();
    boolean reusable = keepAlive && !head.hasToken("Connection", "close");
    if (status == 204 || status == 304) {
      pool.release(connection, reusable);
      return Optional.empty();
    }
    if (head.hasToken("Transfer-Encoding", "chunked")) {
      return Optional.of(new ResponseBody(connection, pool, Framing.CHUNKED, 0, reusable));
    }
    Optional<String> length = head.first("Content-Length");
    if (length.isEmpty()) {
      return Optional.of(new ResponseBody(connection, pool, Framing.UNTIL_CLOSE, 0, false));
    }
    long n;
    try {
      n = Long.parseLong(length.get());
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 0) {
      pool.release(connection, false);
      throw new IOException(
          "Bad Content-Length '" + length.get() + "' from " + connection.endpoint());
    }
    if (n == 0) {
      pool.release(connection, reusable);
      return Optional.empty();
    }
    return Optional.of(new ResponseBody(connection, pool, Framing.LENGTH, n, reusable));
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (done) {
      return -1;
    }
    if (len == 0) {
      return 0;
    }
    try {
      switch (framing) {
        case LENGTH:
          return readBounded(b, off, len);
        case CHUNKED:
          if (remaining == 0 && !nextChunk()) {
            finish(true);
            return -1;
          }
          int n = readBounded(b, off, len);
          if (remaining == 0) {
            chunkEnd();
          }
          return n;
        default:
          int m = in.read(b, off, len);
          if (m < 0) {
            finish(false);
          }
          return m;
      }
    } catch (IOException e) {
      abort();
      throw e;
    }
  }

  private int readBounded(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, (int) Math.min(len, remaining));
    if (n < 0) {
      throw new EOFException("Connection to " + connection.endpoint() + " closed inside a response body");
    }
    remaining -= n;
    if (remaining == 0 && framing == Framing.LENGTH) {
      finish(true);
    }
    return n;
  }

  /** Reads a chunk-size line; false for the last chunk, whose trailers it reads too. */
  private boolean nextChunk() throws IOException {
    String line = ResponseHead.line(in, connection.endpoint());
    if (line == null) {
      throw new EOFException("Connection to " + connection.endpoint() + " closed inside a chunked body");
    }
    int semicolon = line.indexOf(';');
    String hex = (semicolon >= 0 ? line.substring(0, semicolon) : line).trim();
    long size;
    try {
      size = Long.parseLong(hex, 16);
    } catch (NumberFormatException e) {
      size = -1;
    }
    if (size < 0) {
      throw new IOException("Bad chunk size '" + hex + "' from " + connection.endpoint());
    }
    if (size == 0) {
      String trailer;
      while ((trailer = ResponseHead.line(in, connection.endpoint())) != null && !trailer.isEmpty()) {
        // trailers carry nothing these answers need
      }
      return false;
    }
    remaining = size;
    return true;
  }

  private void chunkEnd() throws IOException {
    String crlf = ResponseHead.line(in, connection.endpoint());
    if (crlf == null || !crlf.isEmpty()) {
      throw new IOException("Chunk from " + connection.endpoint() + " not followed by CRLF");
    }
  }

  private void finish(boolean reusable) {
    done = true;
    pool.release(connection, reusable && keepAlive);
  }

  @Override
  public void close() throws IOException {
    if (done) {
      return;
    }
    if (framing == Framing.LENGTH && keepAlive && remaining <= DRAIN_LIMIT) {
      byte[] skip = new byte[(int) remaining];
      while (!done && read(skip, 0, skip.length) >= 0) {
        // the rest is read so that the connection can carry the next request
      }
    } else {
      abort();
    }
  }

  /** Closes the connection under the body; the stream ends. */
  void abort() {
    done = true;
    pool.release(connection, false);
  }
}
