package dev.dtap.cache;

import dev.dtap.cache.cnode.CnodeKeys;
import dev.dtap.fs.config.ConfigKey;
import dev.dtap.fs.spi.ReadCache;
import dev.dtap.fs.spi.ReadCacheFactory;
import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;

/**
 * Registers the page cache with fs-core through {@code META-INF/services}. Public only because
 * {@link java.util.ServiceLoader} needs it.
 */
public final class DtapReadCacheFactory implements ReadCacheFactory {
  @Override
  public Collection<ConfigKey<?>> keys() {
    List<ConfigKey<?>> keys = new ArrayList<>(CacheKeys.all());
    keys.addAll(CnodeKeys.all());
    return keys;
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
