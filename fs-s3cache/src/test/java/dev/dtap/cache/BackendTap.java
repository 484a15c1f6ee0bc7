package dev.dtap.cache;

import dev.dtap.fs.config.TapConfig;
import dev.dtap.fs.spi.TapContext;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * The part of a tap the cache uses, over a backend filesystem a test chooses, for caches built
 * without fs-core's filesystem around them. Immutable.
 */
final class BackendTap implements TapContext {
  private final TapConfig config;
  private final Configuration conf;
  private final FileSystem backend;

  BackendTap(TapConfig config, Configuration conf, FileSystem backend) {
    this.config = config;
    this.conf = conf;
    this.backend = backend;
  }

  @Override
  public TapConfig config() {
    return config;
  }

  @Override
  public Configuration siteConfiguration() {
    return conf;
  }

  @Override
  public Configuration backendConfiguration() {
    return conf;
  }

  @Override
  public FileSystem backend() {
    return backend;
  }

  @Override
  public Path toBackend(Path dtapPath) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Path toDtap(Path backendPath) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void addStatisticsSource(IOStatisticsSource source) {}
}
