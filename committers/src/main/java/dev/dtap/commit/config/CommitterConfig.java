package dev.dtap.commit.config;

import dev.dtap.commit.store.StoreOptions;
import dev.dtap.fs.config.ConfigReader;
import dev.dtap.fs.config.InvalidConfigurationException;
import java.io.File;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The committers' settings, parsed and validated once per committer. Immutable and thread-safe. */
public final class CommitterConfig {
  private static final Logger LOG = LoggerFactory.getLogger(CommitterConfig.class);

  /** The output layout of the staging committer. */
  enum Layout {
    DIRECTORY,
    PARTITIONED
  }

  /** The committers a job can choose. */
  public enum Name {
    MAGIC,
    STAGING,
    FILE
  }

  private final Name name;
  private final ConflictMode conflictMode;
  private final boolean partitioned;
  private final int threads;
  private final long partSize;
  private final int activeParts;
  private final File stagingDir;
  private final boolean markSuccess;
  private final String uuidOverride;
  private final StoreOptions storeOptions;

  private CommitterConfig(
      Name name,
      ConflictMode conflictMode,
      boolean partitioned,
      int threads,
      long partSize,
      int activeParts,
      File stagingDir,
      boolean markSuccess,
      String uuidOverride,
      StoreOptions storeOptions) {
    this.name = name;
    this.conflictMode = conflictMode;
    this.partitioned = partitioned;
    this.threads = threads;
    this.partSize = partSize;
    this.activeParts = activeParts;
    this.stagingDir = stagingDir;
    this.markSuccess = markSuccess;
    this.uuidOverride = uuidOverride;
    this.storeOptions = storeOptions;
  }

  /**
   * Parses the settings.
   *
   * @param conf the job configuration
   * @return the settings
   * @throws InvalidConfigurationException naming the key and the accepted values
   */
  public static CommitterConfig parse(Configuration conf) throws InvalidConfigurationException {
    ConfigReader r = new ConfigReader(conf);
    Name name = CommitterKeys.NAME.get(conf);
    ConflictMode mode = CommitterKeys.CONFLICT_MODE.get(conf);
    boolean partitioned = CommitterKeys.LAYOUT.get(conf) == Layout.PARTITIONED;
    int threads = CommitterKeys.THREADS.get(conf);
    // at most 1 GiB: a magic stream buffers a part in one array
    long partSize = CommitterKeys.PART_SIZE.get(conf);
    int activeParts = CommitterKeys.ACTIVE_PARTS.get(conf);
    String dir = CommitterKeys.STAGING_DIR.get(conf);
    File stagingDir =
        dir != null
            ? ConfigReader.localPath(CommitterKeys.STAGING_DIR.name(), dir, false).toFile()
            : new File(
                conf.get("hadoop.tmp.dir", System.getProperty("java.io.tmpdir")) + "/dtap-staging");
    boolean markSuccess = r.getBoolean("mapreduce.fileoutputcommitter.marksuccessfuljobs", true);
    String uuid = CommitterKeys.UUID.get(conf);
    if (uuid != null && !isJobId(uuid)) {
      throw new InvalidConfigurationException(
          "Invalid value '"
              + uuid
              + "' for "
              + CommitterKeys.UUID.name()
              + ": use 1-128 letters, digits, '.', '_' or '-'");
    }
    for (Map.Entry<String, String> old : CommitterKeys.obsolete().entrySet()) {
      if (conf.get(old.getKey()) != null) {
        LOG.warn("{} is obsolete and ignored: {}", old.getKey(), old.getValue());
      }
    }
    StoreOptions store = new StoreOptions(CommitterKeys.CONDITIONAL_PUT.get(conf));
    return new CommitterConfig(
        name,
        mode,
        partitioned,
        threads,
        partSize,
        activeParts,
        stagingDir,
        markSuccess,
        uuid,
        store);
  }

  /**
   * The settings that shape a tap's store. They are read from the filesystem's configuration when
   * the tap opens (core-site.xml, {@code spark.hadoop.*}), not per job.
   *
   * @return the store settings
   */
  public StoreOptions storeOptions() {
    return storeOptions;
  }

  /**
   * The settings of a job that overwrites partitions dynamically (Spark's {@code
   * partitionOverwriteMode=dynamic}): job commit replaces exactly the partitions the job wrote,
   * whatever the configured conflict mode and layout.
   *
   * @return a copy with conflict mode {@code replace} and the partitioned layout
   */
  public CommitterConfig forDynamicPartitionOverwrite() {
    return new CommitterConfig(
        name,
        ConflictMode.REPLACE,
        true,
        threads,
        partSize,
        activeParts,
        stagingDir,
        markSuccess,
        uuidOverride,
        storeOptions);
  }

  /**
   * @return the committer asked for, or null to choose by backend
   */
  public Name name() {
    return name;
  }

  public ConflictMode conflictMode() {
    return conflictMode;
  }

  public boolean partitioned() {
    return partitioned;
  }

  public int threads() {
    return threads;
  }

  public long partSize() {
    return partSize;
  }

  public int activeParts() {
    return activeParts;
  }

  public File stagingDir() {
    return stagingDir;
  }

  public boolean markSuccess() {
    return markSuccess;
  }

  /**
   * @return the configured job uuid, or null
   */
  public String uuidOverride() {
    return uuidOverride;
  }

  /**
   * @param id a job id from configuration
   * @return whether it can name a job's directories and journal: 1-128 letters, digits, '.', '_' or
   *     '-'
   */
  public static boolean isJobId(String id) {
    return id.matches("[A-Za-z0-9._-]{1,128}");
  }
}
