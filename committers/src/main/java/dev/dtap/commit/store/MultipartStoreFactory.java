package dev.dtap.commit.store;

import dev.dtap.fs.spi.TapContext;
import java.io.IOException;

/**
 * Makes the {@link MultipartStore} of a tap whose backend it knows. Implementations are registered
 * in {@code META-INF/services/dev.dtap.commit.store.MultipartStoreFactory}, have a public no-arg
 * constructor and are thread-safe.
 */
public interface MultipartStoreFactory {
  /**
   * Whether this factory serves a tap's backend. Cheap: it looks at the tap's root and backend
   * only, and creates nothing.
   *
   * @param tap the tap
   * @return true if {@link #create} makes a store for it
   */
  boolean serves(TapContext tap);

  /**
   * Creates the store of a tap this factory {@link #serves}. The store belongs to the caller, who
   * closes it before the tap closes.
   *
   * @param tap the tap; its backend carries the store's settings and credentials
   * @param options the committers' store settings
   * @return the store
   * @throws IOException if the backend's settings cannot be honoured (the message names the key)
   */
  MultipartStore create(TapContext tap, StoreOptions options) throws IOException;
}
