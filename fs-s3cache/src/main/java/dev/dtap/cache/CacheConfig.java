package dev.dtap.cache;

import dev.dtap.fs.config.ConfigReader;
import dev.dtap.fs.config.InvalidConfigurationException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/** The read cache's settings, parsed and validated once. Immutable and thread-safe. */
final class CacheConfig {
  static final int MIN_PAGE = 64 << 10;
  static final int MAX_PAGE = 16 << 20;

  private final List<Path> dirs;
  private final int pageSize;
  private final long maxBytes;
  private final int maxPercent;
  private final long memoryBytes;
  private final int prefetchPages;
  private final int prefetchThreads;
  private final long prefetchMemory;
  private final Duration deadline;
  private final Duration bypassTime;
  private final Duration rescan;
  private final ScanAdmission scanAdmission;

  /** When a page one stream alone reads is cached (see {@link CacheKeys#SCAN_ADMISSION}). */
  enum ScanAdmission {
    /** At once while the cache has room, on the second read when it is nearly full. */
    AUTO("auto"),
    /** On the second read: scan resistant whatever the fill. */
    SECOND_READ("second-read"),
    /** At once. */
    FIRST_READ("first-read");

    final String value;

    ScanAdmission(String value) {
      this.value = value;
    }
  }

  private CacheConfig(
      List<Path> dirs,
      int pageSize,
      long maxBytes,
      int maxPercent,
      long memoryBytes,
      int prefetchPages,
      int prefetchThreads,
      long prefetchMemory,
      Duration deadline,
      Duration bypassTime,
      Duration rescan,
      ScanAdmission scanAdmission) {
    this.dirs = dirs;
    this.pageSize = pageSize;
    this.maxBytes = maxBytes;
    this.maxPercent = maxPercent;
    this.memoryBytes = memoryBytes;
    this.prefetchPages = prefetchPages;
    this.prefetchThreads = prefetchThreads;
    this.prefetchMemory = prefetchMemory;
    this.deadline = deadline;
    this.bypassTime = bypassTime;
    this.rescan = rescan;
    this.scanAdmission = scanAdmission;
  }

  /**
   * Parses the settings.
   *
   * @param conf the site configuration
   * @return the settings
   * @throws InvalidConfigurationException naming the key on any bad value
   */
  static CacheConfig parse(Configuration conf) throws InvalidConfigurationException {
    ConfigReader r = new ConfigReader(conf);
    String dirList = CacheKeys.DIRS.get(conf);
    if (dirList == null) {
      dirList = conf.get("hadoop.tmp.dir", System.getProperty("java.io.tmpdir")) + "/dtap-cache";
    }
    List<Path> dirs = new ArrayList<>();
    for (String d : dirList.split(",")) {
      if (!d.trim().isEmpty()) {
        Path p = Paths.get(d.trim());
        if (!p.isAbsolute()) {
          throw ConfigReader.invalid(CacheKeys.DIRS.name(), dirList, "absolute local directories");
        }
        dirs.add(p);
      }
    }
    if (dirs.isEmpty()) {
      throw ConfigReader.invalid(CacheKeys.DIRS.name(), dirList, "at least one local directory");
    }
    long page = CacheKeys.PAGE_SIZE.get(conf);
    if (Long.bitCount(page) != 1) {
      throw ConfigReader.invalid(
          CacheKeys.PAGE_SIZE.name(),
          r.get(CacheKeys.PAGE_SIZE.name()),
          "a power of two from 64k to 16m");
    }
    long maxBytes = 0;
    int maxPercent = 0;
    String max = CacheKeys.MAX_SIZE.get(conf);
    if (max == null) {
      maxPercent = 25;
    } else if (max.endsWith("%")) {
      try {
        maxPercent = Integer.parseInt(max.substring(0, max.length() - 1).trim());
      } catch (NumberFormatException e) {
        maxPercent = -1;
      }
      if (maxPercent < 1 || maxPercent > 95) {
        throw ConfigReader.invalid(
            CacheKeys.MAX_SIZE.name(), max, "a size such as 200g or a percentage from 1% to 95%");
      }
    } else {
      maxBytes = r.getBytes(CacheKeys.MAX_SIZE.name(), 0, page, Long.MAX_VALUE);
    }
    // unset: 256 MiB, but never more than an eighth of this JVM's heap (a 512 MiB task JVM
    // under 32 readers ran out of heap with a 256 MiB tier); a value set is honoured as it is
    long memory =
        CacheKeys.MEMORY_SIZE.get(
            conf, Math.min(CacheKeys.MEMORY_SIZE_DEFAULT, Runtime.getRuntime().maxMemory() / 8));
    int prefetchPages = CacheKeys.PREFETCH_PAGES.get(conf);
    int prefetchThreads = CacheKeys.PREFETCH_THREADS.get(conf);
    long prefetchMemory = CacheKeys.PREFETCH_MEMORY.get(conf);
    if (prefetchMemory < page) {
      throw ConfigReader.invalid(
          CacheKeys.PREFETCH_MEMORY.name(),
          r.get(CacheKeys.PREFETCH_MEMORY.name()),
          "at least the page size, " + ConfigReader.formatBytes(page));
    }
    Duration deadline = CacheKeys.DEADLINE.get(conf);
    Duration bypass = CacheKeys.BYPASS_TIME.get(conf);
    Duration rescan = CacheKeys.RESCAN.get(conf);
    ScanAdmission scan = CacheKeys.SCAN_ADMISSION.get(conf);
    return new CacheConfig(
        Collections.unmodifiableList(dirs),
        (int) page,
        maxBytes,
        maxPercent,
        memory,
        prefetchPages,
        prefetchThreads,
        prefetchMemory,
        deadline,
        bypass,
        rescan,
        scan);
  }

  List<Path> dirs() {
    return dirs;
  }

  int pageSize() {
    return pageSize;
  }

  /**
   * @return the disk quota in bytes over all directories, or 0 when given as a percentage
   */
  long maxBytes() {
    return maxBytes;
  }

  /**
   * @return the disk quota as a percentage of each directory's volume, or 0
   */
  int maxPercent() {
    return maxPercent;
  }

  long memoryBytes() {
    return memoryBytes;
  }

  int prefetchPages() {
    return prefetchPages;
  }

  int prefetchThreads() {
    return prefetchThreads;
  }

  long prefetchMemory() {
    return prefetchMemory;
  }

  Duration deadline() {
    return deadline;
  }

  Duration bypassTime() {
    return bypassTime;
  }

  Duration rescan() {
    return rescan;
  }

  ScanAdmission scanAdmission() {
    return scanAdmission;
  }

  /** Identifies the page store these settings describe, so that taps and JVM users share one. */
  String storeKey() {
    return dirs
        + "|"
        + pageSize
        + "|"
        + maxBytes
        + "|"
        + maxPercent
        + "|"
        + memoryBytes
        + "|"
        + scanAdmission;
  }
}
