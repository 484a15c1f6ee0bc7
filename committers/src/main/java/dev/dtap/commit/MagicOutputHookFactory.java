package dev.dtap.commit;

import dev.dtap.commit.config.CommitterConfig;
import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.commit.store.MultipartStoreFactory;
import dev.dtap.commit.tap.CommitTap;
import dev.dtap.fs.config.ConfigKey;
import dev.dtap.fs.spi.OutputHook;
import dev.dtap.fs.spi.OutputHookFactory;
import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.util.Collection;
import java.util.List;

/**
 * Registers the committers with fs-core ({@code
 * META-INF/services/dev.dtap.fs.spi.OutputHookFactory}): every tap gets a {@link CommitTap}, its
 * magic-path hook and the committers' per-tap state. Thread-safe.
 */
public final class MagicOutputHookFactory implements OutputHookFactory {
  private volatile List<MultipartStoreFactory> factories;

  /** Creates the factory; found through {@link java.util.ServiceLoader}. */
  public MagicOutputHookFactory() {}

  @Override
  public Collection<ConfigKey<?>> keys() {
    return CommitterKeys.all();
  }

  @Override
  public OutputHook create(TapContext tap) throws IOException {
    List<MultipartStoreFactory> f = factories;
    if (f == null) {
      factories = f = CommitTap.storeFactories();
    }
    return new CommitTap(tap, CommitterConfig.parse(tap.siteConfiguration()), f);
  }
}
