package dev.dtap.commit.config;

import java.io.IOException;
import java.util.Locale;

/**
 * What job commit does when output already exists where the job writes: as the staging committers
 * of Hadoop define it, for the whole destination or, in the partitioned layout, per partition the
 * job writes.
 */
public enum ConflictMode {
  /** Fail (in job setup for a directory, in task commit for a partition) if output exists. */
  FAIL,
  /** Add the new files; a file with the same name is overwritten. */
  APPEND,
  /** Delete the existing output (the destination, or each written partition) at job commit. */
  REPLACE;

  public String configValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static ConflictMode parse(String value, String source) throws IOException {
    for (ConflictMode m : values()) {
      if (m.configValue().equalsIgnoreCase(value.trim())) {
        return m;
      }
    }
    throw new IOException(
        "Invalid conflict mode '"
            + value
            + "' in "
            + source
            + ": expected fail, append or replace");
  }
}
