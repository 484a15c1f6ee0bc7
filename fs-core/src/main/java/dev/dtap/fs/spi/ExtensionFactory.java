package dev.dtap.fs.spi;

import dev.dtap.fs.config.ConfigKey;
import java.util.Collection;

/**
 * Common part of every extension factory found through {@link java.util.ServiceLoader}.
 *
 * <p>Implementations must have a public no-argument constructor and be thread-safe.
 */
public interface ExtensionFactory {
  /**
   * The keys this extension reads. Per-tap keys among them (those under {@code
   * fs.dtap.tap.<name>.}) are accepted by fs-core's configuration validation.
   *
   * @return the keys, documented in {@code docs/configuration.md}
   */
  Collection<ConfigKey<?>> keys();
}
