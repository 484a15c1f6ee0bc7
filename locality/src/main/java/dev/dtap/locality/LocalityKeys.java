package dev.dtap.locality;

import dev.dtap.fs.config.ConfigKey;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Every configuration key the locality module reads; documented in docs/configuration.md. */
public final class LocalityKeys {
  public static final ConfigKey BLOCK_SIZE =
      ConfigKey.of(
          "fs.dtap.block.size",
          "128m",
          "Block size reported for files of taps with locality on, and the unit of placement:"
              + " one split per block.");

  public static final ConfigKey TAP_BLOCK_SIZE =
      ConfigKey.of(
          "fs.dtap.tap.<name>.block.size",
          "value of fs.dtap.block.size",
          "Per-tap block size for locality.");

  public static final ConfigKey REPLICAS =
      ConfigKey.of(
          "fs.dtap.locality.replicas",
          "3",
          "Distinct hosts returned per block (fewer when the cluster has fewer hosts), 1-16.");

  public static final ConfigKey VNODES =
      ConfigKey.of(
          "fs.dtap.locality.vnodes",
          "200",
          "Points per host on the consistent-hash ring, 16-4096. Must be the same on every node.");

  public static final ConfigKey MEMBERSHIP =
      ConfigKey.of(
          "fs.dtap.locality.membership",
          "auto",
          "Where the host list comes from: static (fs.dtap.locality.hosts), file"
              + " (fs.dtap.locality.hosts.file), yarn (RUNNING NodeManagers from the"
              + " ResourceManager, following its HA settings), or auto: static if hosts are listed,"
              + " else file if a file is named, else yarn.");

  public static final ConfigKey HOSTS =
      ConfigKey.of(
          "fs.dtap.locality.hosts",
          null,
          "Comma-separated host names for static membership, exactly as the ResourceManager"
              + " names the NodeManagers.");

  public static final ConfigKey HOSTS_FILE =
      ConfigKey.of(
          "fs.dtap.locality.hosts.file",
          null,
          "Local file with one host per line (# comments) for file membership; re-read when it"
              + " changes.");

  public static final ConfigKey REFRESH =
      ConfigKey.of(
          "fs.dtap.locality.refresh",
          "30s",
          "How often membership is refreshed in the background (100ms-1h). Lookups never wait"
              + " for it.");

  public static final ConfigKey FALLBACK =
      ConfigKey.of(
          "fs.dtap.locality.fallback",
          "backend",
          "What getFileBlockLocations answers before membership is first known: backend (ask the"
              + " backend, as without the resolver) or none (blocks without hosts).");

  private static final List<ConfigKey> ALL =
      Collections.unmodifiableList(
          Arrays.asList(
              BLOCK_SIZE, TAP_BLOCK_SIZE, REPLICAS, VNODES, MEMBERSHIP, HOSTS, HOSTS_FILE, REFRESH,
              FALLBACK));

  private LocalityKeys() {}

  /** @return every key, in documentation order */
  public static List<ConfigKey> all() {
    return ALL;
  }
}
