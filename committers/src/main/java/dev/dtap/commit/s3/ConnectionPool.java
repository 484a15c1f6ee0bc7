package dev.dtap.commit.s3;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Keep-alive connections of {@link DirectTransport}, by endpoint. At most {@code
 * maxConnections} are in use at once (as {@code fs.s3a.connection.maximum} bounds the SDK's own
 * pool); idle ones are reused most recent first, checked before reuse once they have idled a
 * while, and closed once they have idled longer than a server keeps them.
 *
 * <p>Thread-safe.
 */
final class ConnectionPool implements Closeable {
  /** Servers close idle keep-alive connections after some seconds; ours go first. */
  static final long MAX_IDLE_NANOS = TimeUnit.SECONDS.toNanos(20);
  /** An idle connection older than this is checked for a close by the server before reuse. */
  static final long CHECK_AFTER_NANOS = TimeUnit.SECONDS.toNanos(2);

  private final int maxConnections;
  private final int connectTimeoutMillis;
  private final int readTimeoutMillis;
  private final long acquireTimeoutMillis;
  private final Semaphore inUse;
  private final Map<String, Deque<Http1Connection>> idle = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * @param maxConnections connections in use at once, at least 1
   * @param connectTimeoutMillis how long connecting may take
   * @param readTimeoutMillis how long a read may wait for the server
   * @param acquireTimeoutMillis how long a request may wait for a free connection
   */
  ConnectionPool(
      int maxConnections, int connectTimeoutMillis, int readTimeoutMillis, long acquireTimeoutMillis) {
    this.maxConnections = maxConnections;
    this.connectTimeoutMillis = connectTimeoutMillis;
    this.readTimeoutMillis = readTimeoutMillis;
    this.acquireTimeoutMillis = acquireTimeoutMillis;
    this.inUse = new Semaphore(maxConnections, true);
  }

  /**
   * Hands out a connection to an endpoint: an idle one if a usable one is left, else a new one.
   * The caller gives it back with {@link #release} exactly once.
   *
   * @param host the host
   * @param port the port
   * @return a connection, leased to the caller
   * @throws IOException if no connection is free in time or the endpoint cannot be reached
   */
  Http1Connection lease(String host, int port) throws IOException {
    if (closed) {
      throw new IOException("The direct connections to " + host + ":" + port + " are closed");
    }
    try {
      if (!inUse.tryAcquire(acquireTimeoutMillis, TimeUnit.MILLISECONDS)) {
        throw new IOException(
            "No connection to " + host + ":" + port + " free within " + acquireTimeoutMillis
                + " ms: all " + maxConnections + " (fs.s3a.connection.maximum) are busy");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted waiting for a connection to " + host + ":" + port);
    }
    try {
      Http1Connection c = reusable(host + ":" + port);
      if (c == null) {
        c = Http1Connection.open(host, port, connectTimeoutMillis, readTimeoutMillis);
      }
      c.beginLease();
      return c;
    } catch (IOException | RuntimeException e) {
      inUse.release();
      throw e;
    }
  }

  private Http1Connection reusable(String endpoint) {
    Deque<Http1Connection> d = idle.get(endpoint);
    if (d == null) {
      return null;
    }
    Http1Connection c;
    while ((c = d.pollFirst()) != null) {
      long idleNanos = c.idleNanos(System.nanoTime());
      if (idleNanos > MAX_IDLE_NANOS || (idleNanos > CHECK_AFTER_NANOS && c.isStale())) {
        c.closeSocket();
        continue;
      }
      return c;
    }
    return null;
  }

  /**
   * Takes a leased connection back; a second call for the same lease does nothing.
   *
   * @param c the connection
   * @param reusable whether it is positioned at the start of a response-free stream and may carry
   *     another request; false closes it
   */
  void release(Http1Connection c, boolean reusable) {
    if (!c.endLease()) {
      return;
    }
    if (reusable && !closed) {
      c.markIdle();
      Deque<Http1Connection> d = idle.computeIfAbsent(c.endpoint(), k -> new ConcurrentLinkedDeque<>());
      d.offerFirst(c);
      closeExpired(d);
      if (closed && d.remove(c)) {
        c.closeSocket();
      }
    } else {
      c.closeSocket();
    }
    inUse.release();
  }

  /** The oldest idle connections sit at the tail; no reaper thread is needed to close them. */
  private static void closeExpired(Deque<Http1Connection> d) {
    long now = System.nanoTime();
    Http1Connection oldest;
    while ((oldest = d.peekLast()) != null && oldest.idleNanos(now) > MAX_IDLE_NANOS) {
      if (d.removeLastOccurrence(oldest)) {
        oldest.closeSocket();
      }
    }
  }

  /** @return idle connections kept, for tests */
  int idleCount() {
    int n = 0;
    for (Deque<Http1Connection> d : idle.values()) {
      n += d.size();
    }
    return n;
  }

  /** Closes every idle connection; connections in use close when they are released. */
  @Override
  public void close() {
    closed = true;
    for (Deque<Http1Connection> d : idle.values()) {
      Http1Connection c;
      while ((c = d.pollFirst()) != null) {
        c.closeSocket();
      }
    }
  }
}
