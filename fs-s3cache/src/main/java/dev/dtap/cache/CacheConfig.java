package dev.dtap.cache;

import dev.dtap.cache.cnode.CnodeSettings;
import dev.dtap.cache.disk.DiskSettings;
import dev.dtap.cache.disk.PageFile;
import dev.dtap.fs.config.ConfigKey;
import dev.dtap.fs.config.ConfigReader;
import dev.dtap.fs.config.InvalidConfigurationException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/** The read cache's settings, parsed and validated once. Immutable and thread-safe. */
final class CacheConfig {
  static final int MIN_PAGE = 64 << 10;
  static final int MAX_PAGE = PageFile.MAX_PAGE;

  private final DiskSettings disk;
  private final int pageSize;
  private final long memoryBytes;
  private final int prefetchPages;
  private final int prefetchThreads;
  private final long prefetchMemory;
  private final long writeMemory;
  private final Duration deadline;
  private final Duration bypassTime;
  private final Duration rescan;
  private final ScanAdmission scanAdmission;
  private final CnodeSettings cnode;

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
      DiskSettings disk,
      int pageSize,
      long memoryBytes,
      int prefetchPages,
      int prefetchThreads,
      long prefetchMemory,
      long writeMemory,
      Duration deadline,
      Duration bypassTime,
      Duration rescan,
      ScanAdmission scanAdmission,
      CnodeSettings cnode) {
    this.disk = disk;
    this.pageSize = pageSize;
    this.memoryBytes = memoryBytes;
    this.prefetchPages = prefetchPages;
    this.prefetchThreads = prefetchThreads;
    this.prefetchMemory = prefetchMemory;
    this.writeMemory = writeMemory;
    this.deadline = deadline;
    this.bypassTime = bypassTime;
    this.rescan = rescan;
    this.scanAdmission = scanAdmission;
    this.cnode = cnode;
  }

  /**
   * Parses the settings.
   *
   * @param conf the site configuration
   * @return the settings
   * @throws InvalidConfigurationException naming the key on any bad value
   */
  static CacheConfig parse(Configuration conf) throws InvalidConfigurationException {
    return parse(conf, Runtime.getRuntime().maxMemory());
  }

  /**
   * Parses the settings for a JVM of the given maximum heap.
   *
   * @param conf the site configuration
   * @param maxHeap the JVM's maximum heap in bytes, which bounds the heap defaults
   * @return the settings
   * @throws InvalidConfigurationException naming the key on any bad value
   */
  static CacheConfig parse(Configuration conf, long maxHeap) throws InvalidConfigurationException {
    ConfigReader r = new ConfigReader(conf);
    long page = CacheKeys.PAGE_SIZE.get(conf);
    if (Long.bitCount(page) != 1) {
      throw ConfigReader.invalid(
          CacheKeys.PAGE_SIZE.name(),
          r.get(CacheKeys.PAGE_SIZE.name()),
          "a power of two from 64k to 16m");
    }
    DiskSettings disk = DiskSettings.parse(conf, page);
    // Unset, the heap the cache holds scales with the JVM's: a page of 1 MiB is a humongous object
    // on a G1 heap under 8 GiB and takes two MiB of regions, so a sixteenth of the heap in pages
    // occupies an eighth of it. With the earlier defaults (an eighth of the heap for the memory
    // tier and a fixed 64 MiB of write queue) TeraSort's map tasks (-Xmx300m, a 100 MiB sort
    // buffer, S3A's analytics stream buffering below the cache) ran out of heap. Now, in such a
    // task: a sixteenth for the memory tier, a thirty-second for prefetch, a sixteenth for the
    // disk's write queue, 47 MiB (94 MiB of regions) of 300; the demo's TeraSort runs in it. A
    // value set is honoured as it is.
    long memory =
        CacheKeys.MEMORY_SIZE.get(conf, Math.min(CacheKeys.MEMORY_SIZE_DEFAULT, maxHeap / 16));
    int prefetchPages = CacheKeys.PREFETCH_PAGES.get(conf);
    int prefetchThreads = CacheKeys.PREFETCH_THREADS.get(conf);
    long prefetchMemory =
        pageBudget(
            conf,
            r,
            CacheKeys.PREFETCH_MEMORY,
            CacheKeys.PREFETCH_MEMORY_DEFAULT,
            maxHeap / 32,
            page);
    // Twice the prefetch budget: a Spark task lands a whole row group's pages at once, and two
    // tasks landing 18 MB each filled a 32 MiB queue while the writer shared two busy cores; each
    // dropped page was read from the store again by the next run.
    long writeMemory =
        pageBudget(
            conf, r, CacheKeys.WRITE_MEMORY, CacheKeys.WRITE_MEMORY_DEFAULT, maxHeap / 16, page);
    Duration deadline = CacheKeys.DEADLINE.get(conf);
    Duration bypass = CacheKeys.BYPASS_TIME.get(conf);
    Duration rescan = CacheKeys.RESCAN.get(conf);
    ScanAdmission scan = CacheKeys.SCAN_ADMISSION.get(conf);
    return new CacheConfig(
        disk,
        (int) page,
        memory,
        prefetchPages,
        prefetchThreads,
        prefetchMemory,
        writeMemory,
        deadline,
        bypass,
        rescan,
        scan,
        CnodeSettings.parse(conf));
  }

  /**
   * A budget of page bytes: the value set, or unset a share of the heap capped at the declared
   * default; at least one page either way.
   *
   * @throws InvalidConfigurationException naming the key when a value set is below one page
   */
  private static long pageBudget(
      Configuration conf, ConfigReader r, ConfigKey<Long> key, long cap, long heapShare, long page)
      throws InvalidConfigurationException {
    long budget = key.get(conf, Math.max(page, Math.min(cap, heapShare)));
    if (budget < page) {
      throw ConfigReader.invalid(
          key.name(),
          r.get(key.name()),
          "at least the page size, " + ConfigReader.formatBytes(page));
    }
    return budget;
  }

  /**
   * @return the cache directories and quota
   */
  DiskSettings disk() {
    return disk;
  }

  List<Path> dirs() {
    return disk.dirs();
  }

  int pageSize() {
    return pageSize;
  }

  /**
   * @return the host's cache service, or null when each JVM caches on its own
   */
  CnodeSettings cnode() {
    return cnode;
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

  /**
   * @return bytes of pages that may wait for the disk at once
   */
  long writeMemory() {
    return writeMemory;
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
    return disk
        + "|"
        + pageSize
        + "|"
        + memoryBytes
        + "|"
        + scanAdmission
        + "|"
        + (cnode == null ? "in-process" : cnode.identity());
  }
}
