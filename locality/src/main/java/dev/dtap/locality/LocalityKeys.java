package dev.dtap.locality;

import dev.dtap.fs.config.ConfigKey;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Every configuration key the locality module reads; documented in docs/configuration.md. */
public final class LocalityKeys {
  public static final ConfigKey<Long> BLOCK_SIZE =
      ConfigKey.bytes(
          "fs.dtap.block.size",
          128L << 20,
          LocalityConfig.MIN_BLOCK,
          LocalityConfig.MAX_BLOCK,
          "Block size reported for files of taps with locality on, and the unit of placement:"
              + " one split per block.");

  public static final ConfigKey<Long> TAP_BLOCK_SIZE =
      ConfigKey.bytes(
              "fs.dtap.tap.<name>.block.size",
              128L << 20,
              LocalityConfig.MIN_BLOCK,
              LocalityConfig.MAX_BLOCK,
              "Per-tap block size for locality.")
          .documentedDefault("value of fs.dtap.block.size");

  public static final ConfigKey<Integer> REPLICAS =
      ConfigKey.integer(
          "fs.dtap.locality.replicas",
          3,
          1,
          16,
          "Distinct hosts returned per block (fewer when the cluster has fewer hosts), 1-16.");

  public static final ConfigKey<Integer> VNODES =
      ConfigKey.integer(
          "fs.dtap.locality.vnodes",
          200,
          16,
          4096,
          "Points per host on the consistent-hash ring, 16-4096. Must be the same on every node.");

  public static final ConfigKey<LocalityConfig.Source> MEMBERSHIP =
      ConfigKey.choice(
          "fs.dtap.locality.membership",
          LocalityConfig.Source.class,
          LocalityConfig.Source.AUTO,
          "Where the host list comes from: static (fs.dtap.locality.hosts), file"
              + " (fs.dtap.locality.hosts.file), yarn (RUNNING NodeManagers from the"
              + " ResourceManager, following its HA settings), or auto: static if hosts are listed,"
              + " else file if a file is named, else yarn.");

  public static final ConfigKey<String> HOSTS =
      ConfigKey.text(
          "fs.dtap.locality.hosts",
          null,
          "Comma-separated host names for static membership, exactly as the ResourceManager"
              + " names the NodeManagers.");

  public static final ConfigKey<String> HOSTS_FILE =
      ConfigKey.text(
          "fs.dtap.locality.hosts.file",
          null,
          "Local file with one host per line (# comments) for file membership; re-read when it"
              + " changes.");

  public static final ConfigKey<Duration> REFRESH =
      ConfigKey.duration(
          "fs.dtap.locality.refresh",
          Duration.ofSeconds(30),
          "s",
          Duration.ofMillis(100),
          Duration.ofHours(1),
          "How often membership is refreshed in the background (100ms-1h), from the first"
              + " lookup of block locations in a JVM on.");

  public static final ConfigKey<LocalityConfig.Fallback> FALLBACK =
      ConfigKey.choice(
          "fs.dtap.locality.fallback",
          LocalityConfig.Fallback.class,
          LocalityConfig.Fallback.BACKEND,
          "What getFileBlockLocations answers before membership is first known: backend (ask the"
              + " backend, as without the resolver) or none (blocks without hosts).");

  public static final ConfigKey<Duration> TIMEOUT =
      ConfigKey.duration(
          "fs.dtap.locality.timeout",
          Duration.ofSeconds(2),
          "s",
          Duration.ofMillis(100),
          Duration.ofMinutes(10),
          "How long one read of the membership source may take, and how long split planning in a"
              + " JVM waits in all for the first membership (100ms-10m). Past it, locations fall"
              + " back (fs.dtap.locality.fallback) and the next refresh tries again. Listings,"
              + " opens and reads never wait for membership and never ask for it.");

  private static final List<ConfigKey<?>> ALL =
      Collections.unmodifiableList(
          Arrays.asList(
              BLOCK_SIZE,
              TAP_BLOCK_SIZE,
              REPLICAS,
              VNODES,
              MEMBERSHIP,
              HOSTS,
              HOSTS_FILE,
              REFRESH,
              TIMEOUT,
              FALLBACK));

  private LocalityKeys() {}

  /**
   * @return every key, in documentation order
   */
  public static List<ConfigKey<?>> all() {
    return ALL;
  }
}
