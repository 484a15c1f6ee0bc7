package dev.dtap.commit;

import dev.dtap.fs.config.ConfigKey;
import dev.dtap.fs.spi.OutputHook;
import dev.dtap.fs.spi.OutputHookFactory;
import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.util.Collection;

/**
 * Registers the magic committer's output hook with fs-core ({@code
 * META-INF/services/dev.dtap.fs.spi.OutputHookFactory}). Thread-safe.
 */
public final class MagicOutputHookFactory implements OutputHookFactory {
  /** Creates the factory; found through {@link java.util.ServiceLoader}. */
  public MagicOutputHookFactory() {}

  @Override
  public Collection<ConfigKey> keys() {
    return CommitterKeys.all();
  }

  @Override
  public OutputHook create(TapContext tap) throws IOException {
    return new MagicOutputHook(tap, CommitterConfig.parse(tap.siteConfiguration()));
  }
}
