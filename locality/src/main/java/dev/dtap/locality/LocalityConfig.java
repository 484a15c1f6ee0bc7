package dev.dtap.locality;

import dev.dtap.fs.config.ConfigReader;
import dev.dtap.fs.config.InvalidConfigurationException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * The locality settings of one tap, parsed and validated once. Membership settings are
 * cluster-wide; the block size may differ per tap. Immutable and thread-safe.
 */
final class LocalityConfig {
  /** Where membership comes from. */
  enum Source {
    AUTO,
    STATIC,
    FILE,
    YARN
  }

  /** What lookups answer before membership is known. */
  enum Fallback {
    BACKEND,
    NONE
  }

  static final long MIN_BLOCK = 4L << 10;
  static final long MAX_BLOCK = 64L << 30;

  private final long blockSize;
  private final int replicas;
  private final int vnodes;
  private final Source source;
  private final List<String> hosts;
  private final Path hostsFile;
  private final Duration refresh;
  private final Fallback fallback;
  private final Duration timeout;

  private LocalityConfig(
      long blockSize,
      int replicas,
      int vnodes,
      Source source,
      List<String> hosts,
      Path hostsFile,
      Duration refresh,
      Fallback fallback,
      Duration timeout) {
    this.blockSize = blockSize;
    this.replicas = replicas;
    this.vnodes = vnodes;
    this.source = source;
    this.hosts = hosts;
    this.hostsFile = hostsFile;
    this.refresh = refresh;
    this.fallback = fallback;
    this.timeout = timeout;
  }

  /**
   * Parses the settings of one tap.
   *
   * @param conf the site configuration
   * @param tap the tap
   * @return the settings
   * @throws InvalidConfigurationException naming the key on any bad value
   */
  static LocalityConfig parse(Configuration conf, String tap) throws InvalidConfigurationException {
    long global = LocalityKeys.BLOCK_SIZE.get(conf);
    long blockSize = LocalityKeys.TAP_BLOCK_SIZE.getForTap(conf, tap, global);
    int replicas = LocalityKeys.REPLICAS.get(conf);
    int vnodes = LocalityKeys.VNODES.get(conf);
    Source source = LocalityKeys.MEMBERSHIP.get(conf);
    List<String> hosts = new ArrayList<>();
    String hostList = LocalityKeys.HOSTS.get(conf);
    if (hostList != null) {
      for (String h : hostList.split(",")) {
        if (!h.trim().isEmpty()) {
          hosts.add(h.trim());
        }
      }
    }
    String file = LocalityKeys.HOSTS_FILE.get(conf);
    Path hostsFile =
        file == null ? null : ConfigReader.localPath(LocalityKeys.HOSTS_FILE.name(), file, false);
    Duration refresh = LocalityKeys.REFRESH.get(conf);
    Fallback fallback = LocalityKeys.FALLBACK.get(conf);
    if (source == Source.AUTO) {
      source = !hosts.isEmpty() ? Source.STATIC : hostsFile != null ? Source.FILE : Source.YARN;
    }
    if (source == Source.STATIC && hosts.isEmpty()) {
      throw new InvalidConfigurationException(
          LocalityKeys.MEMBERSHIP.name() + "=static needs " + LocalityKeys.HOSTS.name());
    }
    if (source == Source.FILE && hostsFile == null) {
      throw new InvalidConfigurationException(
          LocalityKeys.MEMBERSHIP.name() + "=file needs " + LocalityKeys.HOSTS_FILE.name());
    }
    return new LocalityConfig(
        blockSize,
        replicas,
        vnodes,
        source,
        Collections.unmodifiableList(hosts),
        hostsFile,
        refresh,
        fallback,
        LocalityKeys.TIMEOUT.get(conf));
  }

  long blockSize() {
    return blockSize;
  }

  int replicas() {
    return replicas;
  }

  int vnodes() {
    return vnodes;
  }

  Source source() {
    return source;
  }

  List<String> hosts() {
    return hosts;
  }

  Path hostsFile() {
    return hostsFile;
  }

  Duration refresh() {
    return refresh;
  }

  Fallback fallback() {
    return fallback;
  }

  /**
   * @return how long split planning waits for the first membership, and one read of the source may
   *     take
   */
  Duration timeout() {
    return timeout;
  }

  /** Identifies the membership this configuration follows, so JVM-wide trackers can be shared. */
  String membershipKey(Configuration conf) {
    return source
        + "|"
        + vnodes
        + "|"
        + refresh.toMillis()
        + "|"
        + timeout.toMillis()
        + "|"
        + hosts
        + "|"
        + hostsFile
        + "|"
        + conf.get("yarn.resourcemanager.address")
        + "|"
        + conf.get("yarn.resourcemanager.ha.rm-ids")
        + "|"
        + conf.get("yarn.resourcemanager.cluster-id");
  }
}
