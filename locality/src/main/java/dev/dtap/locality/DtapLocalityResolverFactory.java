package dev.dtap.locality;

import dev.dtap.fs.config.ConfigKey;
import dev.dtap.fs.spi.LocalityResolver;
import dev.dtap.fs.spi.LocalityResolverFactory;
import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.util.Collection;

/**
 * Registers the hashing locality resolver with fs-core through {@code META-INF/services}. Public
 * only because {@link java.util.ServiceLoader} needs it.
 */
public final class DtapLocalityResolverFactory implements LocalityResolverFactory {
  @Override
  public Collection<ConfigKey<?>> keys() {
    return LocalityKeys.all();
  }

  @Override
  public LocalityResolver create(TapContext tap) throws IOException {
    LocalityConfig config = LocalityConfig.parse(tap.siteConfiguration(), tap.config().name());
    HashingLocalityResolver resolver =
        new HashingLocalityResolver(
            tap, config, MembershipTracker.acquire(config, tap.siteConfiguration()));
    tap.addStatisticsSource(resolver);
    return resolver;
  }
}
