package dev.dtap.commit.testing;

import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.MultipartStoreFactory;
import dev.dtap.commit.store.StoreOptions;
import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Serves {@code file://} taps with a {@link LocalMultipartStore} in unit tests (registered in the
 * test classpath's services), so the magic and staging committers run without a network. The store
 * of a tap rooted at {@code /x/root} keeps its uploads in {@code /x/root.uploads}; one store per
 * root, so that tests can reach it through {@link #storeFor}.
 */
public final class LocalStoreFactory implements MultipartStoreFactory {
  private static final Map<String, LocalMultipartStore> STORES = new ConcurrentHashMap<>();

  @Override
  public boolean serves(TapContext tap) {
    return "file".equals(tap.config().root().getScheme());
  }

  @Override
  public MultipartStore create(TapContext tap, StoreOptions options) throws IOException {
    return new Unclosable(storeFor(Path.of(tap.config().root().getPath())));
  }

  /**
   * The store of a tap root.
   *
   * @param root the tap's local root
   * @return its store, shared by every tap instance on that root
   * @throws IOException if the uploads directory cannot be made
   */
  public static LocalMultipartStore storeFor(Path root) throws IOException {
    String k = root.toAbsolutePath().normalize().toString();
    LocalMultipartStore s = STORES.get(k);
    if (s == null) {
      s = new LocalMultipartStore(Path.of(k + ".uploads"));
      LocalMultipartStore raced = STORES.putIfAbsent(k, s);
      s = raced != null ? raced : s;
    }
    return s;
  }

  /** Taps close their stores; the shared one must outlive them. */
  private static final class Unclosable extends ForwardingStore {
    Unclosable(MultipartStore delegate) {
      super(delegate);
    }

    @Override
    public void close() {}
  }
}
