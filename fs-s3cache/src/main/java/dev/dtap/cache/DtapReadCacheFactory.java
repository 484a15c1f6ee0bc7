package dev.dtap.cache;

import dev.dtap.fs.config.ConfigKey;
import dev.dtap.fs.spi.ReadCache;
import dev.dtap.fs.spi.ReadCacheFactory;
import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.util.Collection;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;

/**
 * Registers the page cache with fs-core through {@code META-INF/services}. Public only because
 * {@link java.util.ServiceLoader} needs it.
 */
public final class DtapReadCacheFactory implements ReadCacheFactory {
  @Override
  public Collection<ConfigKey<?>> keys() {
    return CacheKeys.all();
  }

  @Override
  public ReadCache create(TapContext tap) throws IOException {
    CacheConfig config = CacheConfig.parse(tap.siteConfiguration());
    DtapReadCache cache = new DtapReadCache(tap, PageStore.acquire(config));
    tap.addStatisticsSource(cache);
    tap.addStatisticsSource(IOStatisticsBinding.wrap(cache.store().storeStatistics()));
    return cache;
  }
}
