package dev.dtap.fs.config;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Every configuration key fs-core reads. {@code docs/configuration.md} documents each of them; a
 * test keeps the two in step.
 */
public final class DataTapKeys {
  /** Prefix shared by all per-tap keys. */
  public static final String TAP_PREFIX = "fs.dtap.tap.";

  /** Hadoop's binding of the {@code dtap} scheme to the FileSystem implementation. */
  public static final ConfigKey<String> IMPL =
      ConfigKey.of(
          "fs.dtap.impl",
          "dev.dtap.fs.DataTapFileSystem",
          "FileSystem class for dtap:// URIs; also found through META-INF/services, so setting it"
              + " is optional.");

  /** Hadoop's binding of the {@code dtap} scheme for FileContext users. */
  public static final ConfigKey<String> ABSTRACT_IMPL =
      ConfigKey.of(
          "fs.AbstractFileSystem.dtap.impl",
          null,
          "AbstractFileSystem class for FileContext users (YARN log aggregation, MapReduce job"
              + " history, Hive); set it to dev.dtap.fs.DataTapFs.");

  /** The backend root of a tap. */
  public static final ConfigKey<String> TAP_URI =
      ConfigKey.of(
          "fs.dtap.tap.<name>.uri",
          null,
          "Required. The root of the tap on any Hadoop filesystem, e.g. s3a://bucket/warehouse,"
              + " hdfs://nn:8020/data, file:///mnt/nfs/x. No credentials in the URI.");

  /** Whether a tap refuses every mutation. */
  public static final ConfigKey<Boolean> TAP_READONLY =
      ConfigKey.bool(
          "fs.dtap.tap.<name>.readonly",
          false,
          "true makes every mutating call on the tap fail with AccessControlException before the"
              + " backend is touched.");

  /** Per-tap overrides of any Hadoop key for the tap's backend. */
  public static final ConfigKey<String> TAP_CONF =
      ConfigKey.of(
          "fs.dtap.tap.<name>.conf.<key>",
          null,
          "Sets <key> in a private copy of the configuration used only for this tap's backend,"
              + " e.g. fs.dtap.tap.lake.conf.fs.s3a.secret.key. Never visible to other taps.");

  /** Per-tap switch for the read cache. */
  public static final ConfigKey<Boolean> TAP_CACHE =
      ConfigKey.bool(
              "fs.dtap.tap.<name>.cache",
              false,
              "true reads the tap through the compute-side read cache (needs dtap-fs-s3cache on the"
                  + " classpath; the dtap-hadoop jar has it).")
          .documentedDefault("value of fs.dtap.cache.enabled");

  /** Global default of the per-tap cache switch. */
  public static final ConfigKey<Boolean> CACHE_ENABLED =
      ConfigKey.bool(
          "fs.dtap.cache.enabled", false, "Default of fs.dtap.tap.<name>.cache for every tap.");

  /** Per-tap switch for the locality resolver. */
  public static final ConfigKey<Boolean> TAP_LOCALITY =
      ConfigKey.bool(
              "fs.dtap.tap.<name>.locality",
              false,
              "true answers getFileBlockLocations from the local locality resolver (needs"
                  + " dtap-locality); false forwards the call to the backend.")
          .documentedDefault("value of fs.dtap.locality.enabled");

  /** Global default of the per-tap locality switch. */
  public static final ConfigKey<Boolean> LOCALITY_ENABLED =
      ConfigKey.bool(
          "fs.dtap.locality.enabled",
          false,
          "Default of fs.dtap.tap.<name>.locality for every tap.");

  /** Whether each filesystem publishes its counters as a Hadoop metrics2 source. */
  public static final ConfigKey<Boolean> METRICS_ENABLED =
      ConfigKey.bool(
          "fs.dtap.metrics.enabled",
          true,
          "true publishes each dtap filesystem's counters (operations, bytes, errors, cache,"
              + " locality, committers) as a Hadoop metrics2 source, visible in JMX as"
              + " Hadoop:service=dtap,name=DtapFileSystem-<tap>-<n>.");

  /** Whether symlinks under a local tap root are checked for containment. */
  public static final ConfigKey<Boolean> TAP_CHECK_SYMLINKS =
      ConfigKey.bool(
          "fs.dtap.tap.<name>.check-symlinks",
          true,
          "For file:// taps: refuse paths that resolve, through a symlink, outside the tap root."
              + " false trusts the backend directory tree and skips the per-call check.");

  private static final List<ConfigKey<?>> ALL =
      Collections.unmodifiableList(
          Arrays.asList(
              IMPL,
              ABSTRACT_IMPL,
              TAP_URI,
              TAP_READONLY,
              TAP_CONF,
              TAP_CACHE,
              CACHE_ENABLED,
              TAP_LOCALITY,
              LOCALITY_ENABLED,
              TAP_CHECK_SYMLINKS,
              METRICS_ENABLED));

  private DataTapKeys() {}

  /**
   * @return every key fs-core reads, in documentation order
   */
  public static List<ConfigKey<?>> all() {
    return ALL;
  }
}
