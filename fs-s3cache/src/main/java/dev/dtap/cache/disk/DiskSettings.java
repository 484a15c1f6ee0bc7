package dev.dtap.cache.disk;

import dev.dtap.fs.config.ConfigReader;
import dev.dtap.fs.config.InvalidConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * Where pages live on a host and how much of the disk they may take: the cache directories and the
 * quota, as a size shared over them or a percentage of each directory's volume. Immutable and
 * thread-safe.
 */
public final class DiskSettings {
  private final List<Path> dirs;
  private final long maxBytes;
  private final int maxPercent;

  /**
   * @param dirs absolute local directories, at least one
   * @param maxBytes the quota over all directories, or 0 when given as a percentage
   * @param maxPercent the quota as a percentage of each directory's volume, or 0
   */
  public DiskSettings(List<Path> dirs, long maxBytes, int maxPercent) {
    if (dirs.isEmpty() || (maxBytes > 0) == (maxPercent > 0)) {
      throw new IllegalArgumentException("one or more directories and one kind of quota");
    }
    this.dirs = Collections.unmodifiableList(new ArrayList<>(dirs));
    this.maxBytes = maxBytes;
    this.maxPercent = maxPercent;
  }

  /**
   * Parses {@code fs.dtap.cache.dirs} and {@code fs.dtap.cache.max.size}.
   *
   * @param conf the configuration
   * @param minBytes the smallest quota in bytes accepted (a page)
   * @return the settings
   * @throws InvalidConfigurationException naming the key on a bad value
   */
  public static DiskSettings parse(Configuration conf, long minBytes)
      throws InvalidConfigurationException {
    String dirList = DiskKeys.DIRS.get(conf);
    if (dirList == null) {
      dirList = conf.get("hadoop.tmp.dir", System.getProperty("java.io.tmpdir")) + "/dtap-cache";
    }
    List<Path> dirs = new ArrayList<>();
    for (String d : dirList.split(",")) {
      if (!d.trim().isEmpty()) {
        dirs.add(ConfigReader.localPath(DiskKeys.DIRS.name(), d.trim(), true));
      }
    }
    if (dirs.isEmpty()) {
      throw ConfigReader.invalid(DiskKeys.DIRS.name(), dirList, "at least one local directory");
    }
    String max = DiskKeys.MAX_SIZE.get(conf);
    if (max == null) {
      return new DiskSettings(dirs, 0, 25);
    }
    if (max.endsWith("%")) {
      int percent;
      try {
        percent = Integer.parseInt(max.substring(0, max.length() - 1).trim());
      } catch (NumberFormatException e) {
        percent = -1;
      }
      if (percent < 1 || percent > 95) {
        throw ConfigReader.invalid(
            DiskKeys.MAX_SIZE.name(), max, "a size such as 200g or a percentage from 1% to 95%");
      }
      return new DiskSettings(dirs, 0, percent);
    }
    long bytes =
        new ConfigReader(conf).getBytes(DiskKeys.MAX_SIZE.name(), 0, minBytes, Long.MAX_VALUE);
    return new DiskSettings(dirs, bytes, 0);
  }

  /**
   * @return the cache directories, in configuration order
   */
  public List<Path> dirs() {
    return dirs;
  }

  /**
   * @return the quota in bytes over all directories, or 0 when given as a percentage
   */
  public long maxBytes() {
    return maxBytes;
  }

  /**
   * @return the quota as a percentage of each directory's volume, or 0
   */
  public int maxPercent() {
    return maxPercent;
  }

  /**
   * The bytes of pages one directory may hold: its share of the configured size, or the configured
   * percentage of its filesystem.
   *
   * @param dir one of the directories
   * @return its quota
   * @throws IOException if the directory's filesystem cannot be measured
   */
  public long quotaOf(Path dir) throws IOException {
    return maxBytes > 0
        ? maxBytes / dirs.size()
        : Files.getFileStore(dir).getTotalSpace() / 100 * maxPercent;
  }

  @Override
  public String toString() {
    return dirs + "|" + maxBytes + "|" + maxPercent;
  }
}
