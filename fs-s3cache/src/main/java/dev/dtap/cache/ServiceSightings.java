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
  private final Supplier<CnodeClient> service;
  private final Consumer<IOException> failed;
  private final ScanDoorkeeper own = new ScanDoorkeeper();

  /**
   * @param service the connected client, or null while the service is not asked
   * @param failed told when asking the service fails (its breaker counts it)
   */
  ServiceSightings(Supplier<CnodeClient> service, Consumer<IOException> failed) {
    this.service = service;
    this.failed = failed;
  }

  @Override
  public boolean seenBefore(PageKey key) {
    boolean here = own.seenBefore(key);
    return ask(key, true) || here;
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
    CnodeClient c = service.get();
    if (c == null || !c.keepsSightings()) {
      return false;
    }
    try {
      return c.seen(key, record);
    } catch (IOException e) {
      failed.accept(e);
      return false;
    }
  }
}
