package dev.dtap.commit.store;

import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.util.Optional;

/**
 * Makes the {@link MultipartStore} of a tap whose backend it knows. Implementations are registered
 * in {@code META-INF/services/dev.dtap.commit.store.MultipartStoreFactory}, have a public no-arg
 * constructor and are thread-safe.
 */
public interface MultipartStoreFactory {
  /**
   * Creates the store of a tap.
   *
   * @param tap the tap; its backend configuration carries the store's settings and credentials
   * @return the store, or empty when this factory does not serve the tap's backend
   * @throws IOException if the backend is served but its settings are invalid
   */
  Optional<MultipartStore> create(TapContext tap) throws IOException;
}
