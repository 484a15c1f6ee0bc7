package dev.dtap.cache;

import dev.dtap.cache.cnode.CnodeClient;
import dev.dtap.cache.disk.PageKey;
import dev.dtap.cache.disk.ScanDoorkeeper;
import dev.dtap.cache.disk.Sightings;
import java.io.IOException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Sightings of a JVM that reads through the host's cache service: the service keeps them for every
 * JVM of the host, so that a page one task met is admitted when the next task meets it. Every
 * sighting is kept here too, so that this JVM remembers its own while the service cannot be asked
 * (down, its breaker open, an older service that keeps none) and answers its own questions without
 * asking.
 *
 * <p>Thread-safe.
 */
final class ServiceSightings implements Sightings {
  private final Supplier<CnodeClient> connected;
  private final Supplier<CnodeClient> service;
  private final Consumer<IOException> failed;
  private final Runnable answered;
  private final ScanDoorkeeper own = new ScanDoorkeeper();

  /**
   * @param connected the client if connected, without asking the breaker, or null
   * @param service the connected client, or null while the service's breaker holds requests back
   *     (asked before every request: a service that is up but late must not cost every read)
   * @param failed told when asking the service fails (its breaker counts it)
   * @param answered told when the service answered
   */
  ServiceSightings(
      Supplier<CnodeClient> connected,
      Supplier<CnodeClient> service,
      Consumer<IOException> failed,
      Runnable answered) {
    this.connected = connected;
    this.service = service;
    this.failed = failed;
    this.answered = answered;
  }

  @Override
  public boolean seenBefore(PageKey key) {
    if (own.seenBefore(key)) {
      return true;
    }
    return ask(key, true);
  }

  @Override
  public boolean contains(PageKey key) {
    return own.contains(key) || ask(key, false);
  }

  /** Forgets this JVM's sightings; the service forgets its own with its pages. */
  @Override
  public void clear() {
    own.clear();
  }

  private boolean ask(PageKey key, boolean record) {
    CnodeClient open = connected.get();
    if (open != null && !open.keepsSightings()) {
      return false; // an older service: nothing to ask, and the breaker's probe is not taken
    }
    CnodeClient c = service.get();
    if (c == null) {
      return false;
    }
    if (!c.keepsSightings()) {
      answered.run(); // the probe that connected to it: the service answered the handshake
      return false;
    }
    try {
      boolean seen = c.seen(key, record);
      answered.run();
      return seen;
    } catch (IOException e) {
      failed.accept(e);
      return false;
    }
  }
}
