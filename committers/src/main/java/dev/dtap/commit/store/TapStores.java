package dev.dtap.commit.store;

import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The multipart store of each open tap in this JVM, created on first use from the registered
 * {@link MultipartStoreFactory factories} and shared by the tap's output hook and committers, so
 * that one connection pool and one set of counters serve them all. A tap's store is closed when the
 * tap closes ({@link #release}).
 *
 * <p>Thread-safe.
 */
public final class TapStores {
  private static final Map<TapContext, Optional<MultipartStore>> STORES = new IdentityHashMap<>();
  private static volatile List<MultipartStoreFactory> factories;

  private TapStores() {}

  /**
   * The store of a tap.
   *
   * @param tap the tap
   * @return its store, or empty when no factory serves the tap's backend
   * @throws IOException if the store's settings are invalid
   */
  public static Optional<MultipartStore> forTap(TapContext tap) throws IOException {
    synchronized (STORES) {
      Optional<MultipartStore> known = STORES.get(tap);
      if (known != null) {
        return known;
      }
    }
    Optional<MultipartStore> created = Optional.empty();
    for (MultipartStoreFactory f : factories()) {
      created = f.create(tap);
      if (created.isPresent()) {
        break;
      }
    }
    synchronized (STORES) {
      Optional<MultipartStore> raced = STORES.putIfAbsent(tap, created);
      if (raced == null) {
        return created;
      }
    }
    if (created.isPresent()) {
      created.get().close();
    }
    synchronized (STORES) {
      return STORES.get(tap);
    }
  }

  /**
   * Whether some factory serves a tap, without creating its store.
   *
   * @param tap the tap
   * @return true if a store exists or can be created
   * @throws IOException if the store's settings are invalid
   */
  public static boolean served(TapContext tap) throws IOException {
    return forTap(tap).isPresent();
  }

  /**
   * Closes and forgets the store of a tap that is closing.
   *
   * @param tap the tap
   * @throws IOException if closing fails
   */
  public static void release(TapContext tap) throws IOException {
    Optional<MultipartStore> s;
    synchronized (STORES) {
      s = STORES.remove(tap);
    }
    if (s != null && s.isPresent()) {
      s.get().close();
    }
  }

  private static List<MultipartStoreFactory> factories() {
    List<MultipartStoreFactory> f = factories;
    if (f == null) {
      List<MultipartStoreFactory> found = new ArrayList<>();
      ClassLoader loader = TapStores.class.getClassLoader();
      for (MultipartStoreFactory x : ServiceLoader.load(MultipartStoreFactory.class, loader)) {
        found.add(x);
      }
      factories = f = found;
    }
    return f;
  }
}
