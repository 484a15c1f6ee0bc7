package dev.dtap.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.dtap.cache.cnode.CnodeClient;
import dev.dtap.cache.cnode.CnodeSettings;
import dev.dtap.cache.cnode.PageChannel;
import dev.dtap.cache.cnode.PageLookup;
import dev.dtap.cache.disk.CacheDirectory;
import dev.dtap.cache.disk.PageFile;
import dev.dtap.cache.disk.PageKey;
import dev.dtap.cache.disk.Sightings;
import java.io.IOException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host tier of a JVM whose host runs a cache service: pages come from the service (as open
 * files, kept in a small bounded cache so that re-reads skip the service, or as bytes); a miss is
 * filled by this JVM only when the service grants it the lease, so JVMs missing one page at once
 * cause one backend read. The service failing, or answering late, never fails a read: a circuit
 * breaker sends reads to the backend (through this JVM's memory tier) until the service answers
 * again.
 *
 * <p>Thread-safe.
 */
final class CnodeHostTier implements HostTier {
  private static final Logger LOG = LoggerFactory.getLogger(CnodeHostTier.class);
  private final CacheCounters storeCounters;
  private final Cache<PageKey, PageChannel> descriptors;
  private final ServiceLink link;
  private final Sightings sightings;

  private CnodeHostTier(CnodeSettings settings, CacheCounters storeCounters) {
    this.storeCounters = storeCounters;
    this.descriptors =
        Caffeine.newBuilder()
            .maximumSize(settings.descriptors())
            .removalListener((PageKey k, PageChannel p, RemovalCause c) -> closeDescriptor(k, p))
            .build();
    this.link = new ServiceLink(settings, storeCounters, descriptors::invalidateAll);
    // the breaker is asked before every request, as before every lookup
    this.sightings =
        new ServiceSightings(link::connected, link::allowed, link::failed, link::succeeded);
  }

  /**
   * The tier; the service is reached on first use, so a service that is down when a job starts
   * costs nothing but reads from the backend.
   */
  static CnodeHostTier connect(CacheConfig config, CacheCounters storeCounters) {
    return new CnodeHostTier(config.cnode(), storeCounters);
  }

  private void closeDescriptor(PageKey key, PageChannel p) {
    if (p == null) {
      return;
    }
    try {
      p.channel().close();
    } catch (IOException e) {
      // a read-only file
    }
    CnodeClient c = link.last();
    if (c != null) {
      c.release(key);
    }
  }

  @Override
  public byte[] read(PageKey key, CacheCounters stream) {
    byte[] held = held(key, stream);
    if (held != null) {
      return held;
    }
    PageLookup l = lookup(key, false, null);
    return l == null ? null : pageOf(key, l, stream);
  }

  /** A page whose file this JVM holds open, read without asking the service; null if none. */
  private byte[] held(PageKey key, CacheCounters stream) {
    PageChannel p = descriptors.getIfPresent(key);
    byte[] data = p == null ? null : readWhole(key, p);
    if (data != null) {
      stream.hitDisk(data.length);
    }
    return data;
  }

  private PageLookup lookup(PageKey key, boolean mayFill, String owner) {
    // the breaker is asked before every lookup, not only before connecting: a service that is
    // up but late would otherwise cost every read its deadline
    CnodeClient c = link.allowed();
    if (c == null) {
      storeCounters.cnodeFallback();
      return null;
    }
    try {
      PageLookup l = c.lookup(key, mayFill, owner);
      link.succeeded();
      return l;
    } catch (IOException e) {
      link.failed(e);
      storeCounters.cnodeFallback();
      return null;
    }
  }

  /** The page a lookup found, or null. */
  private byte[] pageOf(PageKey key, PageLookup l, CacheCounters stream) {
    byte[] data = l.data();
    if (data == null && l.channel() != null) {
      data = readWhole(key, l.channel());
      keepDescriptor(key, l.channel(), data != null);
    }
    if (data != null) {
      stream.hitDisk(data.length);
    }
    return data;
  }

  private byte[] readWhole(PageKey key, PageChannel p) {
    byte[] data = new byte[p.header().length()];
    return readInto(key, p, 0, data, 0, data.length) ? data : null;
  }

  private boolean readInto(
      PageKey key, PageChannel p, int offset, byte[] dst, int dstOff, int len) {
    if (offset + len > p.header().length()) {
      return false;
    }
    try {
      if (len > 0) {
        PageFile.read(p.channel(), p.header(), offset, dst, dstOff, len);
      }
      return true;
    } catch (PageFile.CorruptPageException e) {
      storeCounters.corruptPage();
      descriptors.invalidate(key);
      CnodeClient c = link.last();
      if (c != null) {
        c.corrupt(key);
      }
      return false;
    } catch (IOException e) {
      // closed under us by an eviction from the descriptor cache: a miss
      descriptors.asMap().remove(key, p);
      return false;
    }
  }

  @Override
  public int read(PageKey key, int offset, byte[] dst, int dstOff, int len, CacheCounters stream) {
    PageChannel p = descriptors.getIfPresent(key);
    if (p == null) {
      PageLookup l = lookup(key, false, null);
      if (l == null || !l.isHit()) {
        return -1;
      }
      if (l.data() != null) {
        if (offset + len > l.data().length) {
          return -1;
        }
        System.arraycopy(l.data(), offset, dst, dstOff, len);
        stream.hitDisk(len);
        return len;
      }
      p = l.channel();
      boolean read = readInto(key, p, offset, dst, dstOff, len);
      keepDescriptor(key, p, read);
      if (!read) {
        return -1;
      }
    } else if (!readInto(key, p, offset, dst, dstOff, len)) {
      return -1;
    }
    stream.hitDisk(len);
    return len;
  }

  /**
   * Caches a new descriptor once it was read from (the cache may close it at once: it holds none
   * when {@code fs.dtap.cnode.descriptors} is 0), or gives it back when the read failed.
   */
  private void keepDescriptor(PageKey key, PageChannel p, boolean good) {
    if (good) {
      descriptors.put(key, p);
    } else {
      closeDescriptor(key, p);
    }
  }

  @Override
  public byte[] load(
      PageKey key, String owner, PageStore.Loader loader, boolean keep, CacheCounters stream)
      throws IOException {
    byte[] held = held(key, stream);
    if (held != null) {
      return held;
    }
    PageLookup l = lookup(key, keep, owner);
    if (l != null && l.isHit()) {
      byte[] data = pageOf(key, l, stream);
      if (data != null) {
        return data;
      }
    }
    stream.miss();
    byte[] data;
    try {
      data = loader.load();
    } catch (IOException | RuntimeException | Error e) {
      if (l != null && l.lease() >= 0) {
        CnodeClient c = link.last();
        if (c != null) {
          c.abortFill(l.lease(), key);
        }
      }
      throw e;
    }
    stream.backend(data.length);
    if (l != null && l.lease() >= 0) {
      CnodeClient c = link.last();
      if (c != null) {
        c.fill(l.lease(), key, data);
      }
    }
    return data;
  }

  @Override
  public void keep(PageKey key, byte[] data) {
    CnodeClient c = link.client();
    if (c != null) {
      c.offer(key, data);
    }
  }

  @Override
  public boolean shared() {
    return true;
  }

  @Override
  public boolean contains(PageKey key) {
    return descriptors.getIfPresent(key) != null;
  }

  @Override
  public long sizeOnHost(PageKey key) throws IOException {
    return link.required().sizeOf(key);
  }

  @Override
  public void forget(PageKey key) throws IOException {
    descriptors.invalidate(key);
    link.required().forget(key);
  }

  @Override
  public Sightings sightings() {
    return sightings;
  }

  @Override
  public boolean hasRoom() {
    CnodeClient c = link.last();
    return c != null && c.room();
  }

  @Override
  public List<CacheDirectory> directories() {
    List<CacheDirectory> dirs = new ArrayList<>();
    String stats;
    try {
      stats = link.required().stats();
    } catch (IOException e) {
      return dirs;
    }
    for (String line : stats.split("\n")) {
      if (line.startsWith("dir=")) {
        String[] f = line.substring(4).split(",", 6);
        if (f.length == 6) {
          dirs.add(
              new CacheDirectory(
                  Paths.get(f[5]),
                  Long.parseLong(f[0]),
                  Long.parseLong(f[1]),
                  Long.parseLong(f[2]),
                  Long.parseLong(f[3]),
                  f[4].isEmpty() ? null : f[4]));
        }
      }
    }
    return dirs;
  }

  @Override
  public Map<String, Long> serviceStatistics() {
    Map<String, Long> m = new LinkedHashMap<>();
    String stats;
    try {
      stats = link.required().stats();
    } catch (IOException e) {
      return m;
    }
    for (String line : stats.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0 && !line.startsWith("dir=") && !line.startsWith("host=")) {
        try {
          m.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1)));
        } catch (NumberFormatException e) {
          // not a number: not a counter
        }
      }
    }
    return m;
  }

  @Override
  public void flush() throws InterruptedException {
    CnodeClient c = link.last();
    if (c != null) {
      c.flush();
    }
  }

  @Override
  public void clear() throws IOException {
    descriptors.invalidateAll();
    link.required().clear();
  }

  @Override
  public void close() {
    CnodeClient c = link.connected();
    // a service the breaker already routes around would only hold an exiting JVM up
    if (c != null && !link.holdsBack()) {
      try {
        // without this, the pages of a task JVM's last reads die with the connection
        if (!c.flush(TimeUnit.SECONDS.toNanos(CLOSE_DRAIN_SECONDS))) {
          LOG.info(
              "dtap cache: the host cache service did not confirm this JVM's last pages within"
                  + " {} s or the connection ended; they will be read from the store again",
              CLOSE_DRAIN_SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    descriptors.invalidateAll();
    descriptors.cleanUp();
    link.close();
  }
}
