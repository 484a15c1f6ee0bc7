package dev.dtap.cache;

import java.util.Locale;

/**
 * What a caller's {@code fs.option.openfile.read.policy} tells the cache about the access to come.
 *
 * <p>Hadoop defines the option as a list of policies in order of preference, of which a filesystem
 * uses the first it recognizes: Parquet 1.16's reader asks for {@code parquet, vector, random,
 * adaptive}, and a store that knew only {@code random} would still read that file randomly. The
 * cache recognizes the names S3A's input policy knows in Hadoop 3.5 (Hadoop's standard ones and
 * S3A's older {@code normal}); a format name counts as the access pattern its files are read with
 * (columnar formats and HBase tables randomly, row formats end to end), as S3A treats them. Unknown
 * names are skipped, so a list made for a newer Hadoop still finds its fallback.
 *
 * <p>Immutable.
 */
enum ReadPolicy {
  /** Reads that jump about: take what was asked on a miss, fill the page beside the reader. */
  RANDOM,
  /** Reads from start to end: whole pages, read ahead. */
  SEQUENTIAL,
  /**
   * No declared pattern ({@code adaptive}, {@code default}, {@code normal}, none): the cache
   * watches the reads.
   */
  ADAPTIVE;

  /**
   * The first policy of a list the cache recognizes.
   *
   * @param option the option's value, a comma-separated list; may be null or empty
   * @return the policy, {@link #ADAPTIVE} when the list names none the cache knows
   */
  static ReadPolicy parse(String option) {
    if (option == null) {
      return ADAPTIVE;
    }
    for (String name : option.split(",")) {
      ReadPolicy p = named(name.trim().toLowerCase(Locale.ROOT));
      if (p != null) {
        return p;
      }
    }
    return ADAPTIVE;
  }

  private static ReadPolicy named(String name) {
    switch (name) {
      case "random":
      case "vector":
      case "columnar":
      case "parquet":
      case "orc":
      case "hbase":
        return RANDOM;
      case "sequential":
      case "whole-file":
      case "avro":
      case "csv":
      case "json":
        return SEQUENTIAL;
      case "adaptive":
      case "default":
      case "normal": // S3A's older name for adaptive
        return ADAPTIVE;
      default:
        return null;
    }
  }
}
