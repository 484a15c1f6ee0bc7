package dev.dtap.cache;

import dev.dtap.cache.disk.DiskKeys;
import dev.dtap.fs.config.ConfigKey;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Every configuration key the read cache reads; documented in docs/configuration.md. */
public final class CacheKeys {
  public static final ConfigKey<String> DIRS = DiskKeys.DIRS;

  public static final ConfigKey<Long> PAGE_SIZE =
      ConfigKey.bytes(
          "fs.dtap.cache.page.size",
          1L << 20,
          64L << 10,
          16L << 20,
          "Size of a cached page, 64k-16m. The unit of caching, checksumming and backend fills.");

  public static final ConfigKey<String> MAX_SIZE = DiskKeys.MAX_SIZE;

  /** The memory tier's size when unset and the heap is large enough. */
  static final long MEMORY_SIZE_DEFAULT = 256L << 20;

  public static final ConfigKey<Long> MEMORY_SIZE =
      ConfigKey.bytes(
          "fs.dtap.cache.memory.size",
          MEMORY_SIZE_DEFAULT,
          0,
          1L << 40,
          "Heap for the in-memory page tier (W-TinyLFU, scan resistant); 0 turns it off. Unset, at"
              + " most a sixteenth of the JVM's maximum heap.");

  public static final ConfigKey<Integer> PREFETCH_PAGES =
      ConfigKey.integer(
          "fs.dtap.cache.prefetch.pages",
          4,
          0,
          256,
          "Pages read ahead, asynchronously, once a stream reads sequentially; 0 turns prefetch"
              + " off. Random reads prefetch nothing.");

  public static final ConfigKey<Integer> PREFETCH_THREADS =
      ConfigKey.integer(
          "fs.dtap.cache.prefetch.threads",
          4,
          1,
          256,
          "Threads shared by all streams of the JVM for prefetch and background page fills.");

  /** The prefetch budget when unset and the heap is large enough. */
  static final long PREFETCH_MEMORY_DEFAULT = 64L << 20;

  public static final ConfigKey<Long> PREFETCH_MEMORY =
      ConfigKey.bytes(
          "fs.dtap.cache.prefetch.memory",
          PREFETCH_MEMORY_DEFAULT,
          64L << 10,
          1L << 40,
          "Bytes of prefetched pages in flight at once, over all streams of the JVM; further"
              + " prefetches are skipped. Unset, at most a thirty-second of the JVM's maximum"
              + " heap.");

  /** The write queue's budget when unset and the heap is large enough. */
  static final long WRITE_MEMORY_DEFAULT = 128L << 20;

  public static final ConfigKey<Long> WRITE_MEMORY =
      ConfigKey.bytes(
          "fs.dtap.cache.write.memory",
          WRITE_MEMORY_DEFAULT,
          64L << 10,
          1L << 40,
          "Bytes of fetched pages queued for the cache disk, over all streams of the JVM. Readers"
              + " never wait for the disk: a page that finds the queue full is not kept (counted"
              + " in dtap_cache_writes_dropped) and is read from the backend again next time."
              + " Unset, at most a sixteenth of the JVM's maximum heap.");

  public static final ConfigKey<Duration> DEADLINE =
      ConfigKey.duration(
          "fs.dtap.cache.deadline",
          Duration.ofMillis(500),
          "ms",
          Duration.ofMillis(1),
          Duration.ofMinutes(10),
          "A cache disk slower than this is a fault: reads bypass the disk tier for"
              + " fs.dtap.cache.bypass.time. It takes two slow operations within a minute, the"
              + " second begun after the first ended: one alone may have met a collection pause"
              + " or a busy host, which slow every operation in flight alike.");

  public static final ConfigKey<Duration> BYPASS_TIME =
      ConfigKey.duration(
          "fs.dtap.cache.bypass.time",
          Duration.ofSeconds(30),
          "s",
          Duration.ZERO,
          Duration.ofHours(24),
          "How long the disk tier is bypassed after a fault (full disk, permissions, I/O error,"
              + " slow disk) before it is tried again.");

  public static final ConfigKey<Duration> RESCAN =
      ConfigKey.duration(
          "fs.dtap.cache.rescan",
          Duration.ofSeconds(60),
          "s",
          Duration.ofMillis(100),
          Duration.ofHours(24),
          "How often the page index is rebuilt from the directories, to account for pages other"
              + " JVMs of the host wrote or evicted.");

  public static final ConfigKey<CacheConfig.ScanAdmission> SCAN_ADMISSION =
      ConfigKey.choice(
          "fs.dtap.cache.scan.admission",
          CacheConfig.ScanAdmission.class,
          CacheConfig.ScanAdmission.AUTO,
          "When a page that one stream alone reads is cached: auto (a sequential read's at once"
              + " while the cache is under 90% of its quota, so a job run again hits; a random"
              + " read's, and any once the cache is nearly full, on the second read, by any JVM"
              + " caching in the same directories, so one-off scans do not push out what is"
              + " re-read), second-read, or first-read.");

  private static final List<ConfigKey<?>> ALL =
      Collections.unmodifiableList(
          Arrays.asList(
              DIRS,
              PAGE_SIZE,
              MAX_SIZE,
              MEMORY_SIZE,
              PREFETCH_PAGES,
              PREFETCH_THREADS,
              PREFETCH_MEMORY,
              WRITE_MEMORY,
              DEADLINE,
              BYPASS_TIME,
              RESCAN,
              SCAN_ADMISSION));

  private CacheKeys() {}

  /**
   * @return every key, in documentation order
   */
  public static List<ConfigKey<?>> all() {
    return ALL;
  }
}
