package dev.dtap.fs.spi;

import java.io.IOException;

/**
 * Creates the locality resolver of a tap whose {@code fs.dtap.tap.<name>.locality} is true.
 * Registered in {@code META-INF/services/dev.dtap.fs.spi.LocalityResolverFactory}.
 */
public interface LocalityResolverFactory extends ExtensionFactory {
  /**
   * Creates the resolver for one tap.
   *
   * @param tap the tap
   * @return the resolver; closed when the dtap filesystem closes
   * @throws IOException if it cannot be set up (invalid configuration included)
   */
  LocalityResolver create(TapContext tap) throws IOException;
}
