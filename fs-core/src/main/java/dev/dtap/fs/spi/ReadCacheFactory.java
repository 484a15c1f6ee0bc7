package dev.dtap.fs.spi;

import java.io.IOException;

/**
 * Creates the read cache of a tap whose {@code fs.dtap.tap.<name>.cache} is true. Registered in
 * {@code META-INF/services/dev.dtap.fs.spi.ReadCacheFactory}.
 */
public interface ReadCacheFactory extends ExtensionFactory {
  /**
   * Creates the cache for one tap.
   *
   * @param tap the tap
   * @return the cache; closed when the dtap filesystem closes
   * @throws IOException if the cache cannot be set up (invalid configuration included)
   */
  ReadCache create(TapContext tap) throws IOException;
}
