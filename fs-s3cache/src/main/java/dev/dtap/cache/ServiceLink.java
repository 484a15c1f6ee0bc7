package dev.dtap.cache;

import dev.dtap.cache.cnode.CircuitBreaker;
import dev.dtap.cache.cnode.CnodeClient;
import dev.dtap.cache.cnode.CnodeSettings;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JVM's link to its host's cache service: connected on first use and again after the service went
 * away, behind a circuit breaker that holds requests back while the service fails or answers late.
 * Warns once when the breaker opens and says so when the service answers again.
 *
 * <p>Thread-safe.
 */
final class ServiceLink implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceLink.class);

  private final CnodeSettings settings;
  private final CacheCounters storeCounters;
  private final CircuitBreaker breaker;
  private final Runnable beforeReconnect;
  private final Object connectLock = new Object();
  private final AtomicBoolean warned = new AtomicBoolean();

  private volatile CnodeClient client;

  /**
   * @param beforeReconnect runs before a closed client is replaced, so that what the old one was
   *     granted is invalidated first
   */
  ServiceLink(CnodeSettings settings, CacheCounters storeCounters, Runnable beforeReconnect) {
    this.settings = settings;
    this.storeCounters = storeCounters;
    this.beforeReconnect = beforeReconnect;
    this.breaker =
        new CircuitBreaker(settings.breakerFailures(), settings.breakerOpen(), System::nanoTime);
  }

  /** The last client, open or closed, or null: for giving back what it granted. */
  CnodeClient last() {
    return client;
  }

  /**
   * @return whether the breaker holds requests back: the service failed or answered late lately
   */
  boolean holdsBack() {
    return breaker.isOpen();
  }

  /** The client if it is connected, or null; the breaker is not asked. */
  CnodeClient connected() {
    CnodeClient c = client;
    return c != null && c.isOpen() ? c : null;
  }

  /**
   * The client, connected if need be, or null while the breaker holds requests back; asks the
   * breaker even when connected, so that a service that is up but late does not cost every request
   * its deadline. The caller reports the request's outcome.
   */
  CnodeClient allowed() {
    return breaker.allow() ? connect() : null;
  }

  /** The connected client, or one connected now unless the breaker holds requests back. */
  CnodeClient client() {
    CnodeClient c = connected();
    return c != null ? c : allowed();
  }

  /**
   * @return the connected client
   * @throws IOException if the service cannot be reached now (the message names its socket)
   */
  CnodeClient required() throws IOException {
    CnodeClient c = client();
    if (c == null) {
      throw new IOException(
          "The host's cache service at " + settings.socket() + " does not answer now");
    }
    return c;
  }

  /** A request was answered. */
  void succeeded() {
    breaker.success();
  }

  /** A request failed or came late: counted by the breaker, which may open. */
  void failed(IOException e) {
    breaker.failure();
    storeCounters.cnodeFailure();
    if (breaker.isOpen() && warned.compareAndSet(false, true)) {
      LOG.warn(
          "dtap cache: the host's cache service at {} fails ({}); reading without it for {} ms at"
              + " a time until it answers",
          settings.socket(),
          e.toString(),
          settings.breakerOpen().toMillis());
    }
  }

  /** Connects unless connected; the caller passed the breaker, and the outcome is reported. */
  private CnodeClient connect() {
    CnodeClient c = connected();
    if (c != null) {
      return c;
    }
    synchronized (connectLock) {
      c = client;
      if (c != null && c.isOpen()) {
        return c;
      }
      if (c != null) {
        beforeReconnect.run();
        c.close();
        client = null;
      }
      try {
        c = CnodeClient.connect(settings);
      } catch (IOException e) {
        failed(e);
        return null;
      }
      client = c;
      breaker.success();
      if (warned.compareAndSet(true, false)) {
        LOG.info("dtap cache: the host's cache service answers again");
      }
      return c;
    }
  }

  @Override
  public void close() {
    CnodeClient c = client;
    if (c != null) {
      c.close();
    }
  }
}
