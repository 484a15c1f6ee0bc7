package dev.dtap.commit.config;

import dev.dtap.fs.config.ConfigKey;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every configuration key the committers read; documented in docs/configuration.md. */
public final class CommitterKeys {
  public static final ConfigKey<CommitterConfig.Name> NAME =
      ConfigKey.choice(
              "fs.dtap.committer.name",
              CommitterConfig.Name.class,
              null,
              "magic, staging or file. Unset: magic on taps whose backend has multipart uploads"
                  + " (S3), file (Hadoop's FileOutputCommitter) on the others, such as HDFS.")
          .documentedDefault("(by backend)");

  public static final ConfigKey<ConflictMode> CONFLICT_MODE =
      ConfigKey.choice(
          "fs.dtap.committer.conflict-mode",
          ConflictMode.class,
          ConflictMode.APPEND,
          "What job commit does with existing output: fail, append (same names are overwritten)"
              + " or replace, for the whole destination or per partition (see layout).");

  public static final ConfigKey<CommitterConfig.Layout> LAYOUT =
      ConfigKey.choice(
          "fs.dtap.committer.layout",
          CommitterConfig.Layout.class,
          CommitterConfig.Layout.DIRECTORY,
          "directory or partitioned: whether the conflict mode applies to the destination as a"
              + " whole or to each partition directory the job writes into.");

  public static final ConfigKey<Integer> THREADS =
      ConfigKey.integer(
          "fs.dtap.committer.threads",
          32,
          1,
          1024,
          "Threads for completing and aborting uploads in job commit and for uploading parts and"
              + " staged files in tasks, 1-1024.");

  public static final ConfigKey<Long> PART_SIZE =
      ConfigKey.bytes(
          "fs.dtap.committer.part.size",
          8L << 20,
          5L << 20,
          1L << 30,
          "Size of an upload part, 5m-1g: the memory a magic stream buffers per part.");

  public static final ConfigKey<Integer> ACTIVE_PARTS =
      ConfigKey.integer(
          "fs.dtap.committer.magic.active-parts",
          2,
          1,
          64,
          "Parts of one magic stream uploading at once, 1-64; a writer blocks beyond it, so a"
              + " stream holds at most (active-parts + 1) x part.size bytes.");

  public static final ConfigKey<String> STAGING_DIR =
      ConfigKey.text(
          "fs.dtap.committer.staging.dir",
          "${hadoop.tmp.dir}/dtap-staging",
          "Local directory where staging tasks write their output before task commit uploads it.");

  public static final ConfigKey<Boolean> CONDITIONAL_PUT =
      ConfigKey.bool(
          "fs.dtap.committer.conditional-put",
          true,
          "Whether the store honours If-None-Match: * (S3, MinIO, recent Ceph RGW); job setup"
              + " checks it. false: task commit records are written without it and the last"
              + " committed attempt wins.");

  public static final ConfigKey<String> UUID =
      ConfigKey.text(
          "fs.dtap.committer.uuid",
          "(job id)",
          "The job's unique id in paths and records; unset: Spark's spark.sql.sources.writeJobUUID"
              + " when set, else the MapReduce job id (stable across AM restarts).");

  private static final List<ConfigKey<?>> ALL =
      Collections.unmodifiableList(
          Arrays.asList(
              NAME,
              CONFLICT_MODE,
              LAYOUT,
              THREADS,
              PART_SIZE,
              ACTIVE_PARTS,
              STAGING_DIR,
              CONDITIONAL_PUT,
              UUID));

  /**
   * Keys of earlier releases that no longer do anything, each with what to do instead. A site file
   * that still sets one is reported (the committers log it, {@code dtap doctor} lists it) rather
   * than failing jobs: none of them changed what a job writes.
   */
  private static final Map<String, String> OBSOLETE = obsoleteKeys();

  private static Map<String, String> obsoleteKeys() {
    Map<String, String> m = new LinkedHashMap<>();
    String oneClient = "every request goes through S3A's own S3 client; remove it";
    m.put("fs.dtap.committer.transport", oneClient);
    m.put("fs.dtap.committer.part.transport", oneClient);
    m.put(
        "fs.dtap.committer.signed-payload",
        "requests are signed as S3A's client signs them (fs.s3a.*); remove it");
    return Collections.unmodifiableMap(m);
  }

  private CommitterKeys() {}

  /**
   * @return every key, in documentation order
   */
  public static List<ConfigKey<?>> all() {
    return ALL;
  }

  /**
   * @return the keys earlier releases read and this one ignores, each with what to do instead, in a
   *     stable order
   */
  public static Map<String, String> obsolete() {
    return OBSOLETE;
  }
}
