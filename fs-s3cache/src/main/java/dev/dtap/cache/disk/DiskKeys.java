package dev.dtap.cache.disk;

import dev.dtap.fs.config.ConfigKey;

/**
 * The keys that place pages on a host's disk, read by task JVMs caching on their own and by the
 * host's cache service alike; documented in docs/configuration.md with the cache's keys.
 */
public final class DiskKeys {
  public static final ConfigKey<String> DIRS =
      ConfigKey.text(
          "fs.dtap.cache.dirs",
          "${hadoop.tmp.dir}/dtap-cache",
          "Comma-separated local directories for cached pages, shared by every JVM of the host"
              + " that uses them (or owned by the host's cache service); pages are spread over"
              + " them by hash. Created 0700.");

  public static final ConfigKey<String> MAX_SIZE =
      ConfigKey.text(
          "fs.dtap.cache.max.size",
          "25%",
          "Disk quota: a size (e.g. 200g) shared over the directories, or a percentage of each"
              + " directory's volume. Least recently used pages are evicted beyond it.");

  private DiskKeys() {}
}
