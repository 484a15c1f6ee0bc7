package dev.dtap.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Pages on local disk: one immutable file per page under {@code <dir>/<2 hex>/<32 hex>}, spread
 * over the configured directories by key. Pages are written to a temporary file and renamed into
 * place, so every JVM sharing the directories sees whole pages or none; every read verifies the
 * checksums, and a page that fails is deleted and reported absent, never returned. Directories are
 * 0700 and files 0600.
 *
 * <p>Any JVM can serve a page another wrote, because the file name is the key. Quota and eviction
 * are per JVM over the pages it knows (written, read or found by the periodic scan).
 *
 * <p>Thread-safe.
 */
final class DiskTier {
  private static final Set<PosixFilePermission> DIR_PERMS =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE_PERMS =
      PosixFilePermissions.fromString("rw-------");
  private static final FileAttribute<Set<PosixFilePermission>> DIR_ATTR =
      PosixFilePermissions.asFileAttribute(DIR_PERMS);
  private static final FileAttribute<Set<PosixFilePermission>> FILE_ATTR =
      PosixFilePermissions.asFileAttribute(FILE_PERMS);

  /** Temporary files older than this are leftovers of a crashed writer. */
  private static final long STALE_TEMP_MS = 10 * 60_000L;

  private final List<Path> dirs;
  private final long[] quota;
  private final AtomicLongArray used;
  private final DiskIndex index = new DiskIndex();
  private final CacheCounters counters;
  private final Cache<PageKey, OpenPage> open;
  private final AtomicLong evictions = new AtomicLong();
  private final DiskIo io;

  /** An open page file with its verified header, kept for random reads. */
  static final class OpenPage {
    final FileChannel channel;
    final PageFile.Header header;

    OpenPage(FileChannel channel, PageFile.Header header) {
      this.channel = channel;
      this.header = header;
    }
  }

  private final CacheConfig config;

  /** Sets the tier up; nothing is touched on disk until {@link #prepare()}. */
  DiskTier(CacheConfig config, CacheCounters counters, DiskIo io) {
    this.io = io;
    this.config = config;
    this.dirs = config.dirs();
    this.counters = counters;
    this.used = new AtomicLongArray(dirs.size());
    this.quota = new long[dirs.size()];
    this.open =
        Caffeine.newBuilder()
            .maximumSize(256)
            .removalListener((PageKey k, OpenPage p, RemovalCause c) -> closeQuietly(p))
            .build();
  }

  /**
   * Creates the directories (0700) and sizes the quota. Called before the first scan and again
   * after a fault, so a directory that appears later is picked up.
   *
   * @throws IOException if a directory cannot be made or measured
   */
  void prepare() throws IOException {
    for (int i = 0; i < dirs.size(); i++) {
      Path d = dirs.get(i);
      createPrivateDirectory(d);
      quota[i] = quotaOf(config, d);
    }
  }

  /**
   * The bytes of pages one directory may hold: its share of the configured size, or the configured
   * percentage of its filesystem.
   *
   * @throws IOException if the directory's filesystem cannot be measured
   */
  static long quotaOf(CacheConfig config, Path dir) throws IOException {
    return config.maxBytes() > 0
        ? config.maxBytes() / config.dirs().size()
        : Files.getFileStore(dir).getTotalSpace() / 100 * config.maxPercent();
  }

  static void createPrivateDirectory(Path d) throws IOException {
    if (!Files.isDirectory(d)) {
      try {
        Files.createDirectories(d, DIR_ATTR);
      } catch (FileAlreadyExistsException e) {
        // a racing JVM made it
      }
    }
    // createDirectories honours the umask; make sure the cache is private
    Files.setPosixFilePermissions(d, DIR_PERMS);
  }

  int dirOf(PageKey key) {
    return (int) Long.remainderUnsigned(key.lo(), dirs.size());
  }

  Path pathOf(PageKey key) {
    String name = key.fileName();
    return dirs.get(dirOf(key)).resolve(name.substring(0, 2)).resolve(name);
  }

  /**
   * Reads and verifies a whole page.
   *
   * @param key the page
   * @return its bytes, or null when no (valid) page is on disk
   * @throws IOException on a fault of the disk (not for missing or corrupt pages)
   */
  byte[] read(PageKey key) throws IOException {
    for (int attempt = 0; ; attempt++) {
      OpenPage page = openPage(key);
      if (page == null) {
        return null;
      }
      byte[] data = new byte[page.header.length];
      try {
        if (data.length > 0) {
          PageFile.read(page.channel, page.header, 0, data, 0, data.length);
        }
      } catch (PageFile.CorruptPageException e) {
        corrupt(key);
        return null;
      } catch (ClosedChannelException e) {
        // the shared channel was closed under us (evicted from the open-file cache): reopen once
        open.asMap().remove(key, page);
        if (attempt > 0) {
          throw e;
        }
        continue;
      }
      index.touch(key);
      return data;
    }
  }

  /**
   * Reads and verifies part of a page.
   *
   * @return the bytes copied ({@code len}), or -1 when no (valid) page is on disk
   * @throws IOException on a fault of the disk
   */
  int read(PageKey key, int offset, byte[] dst, int dstOff, int len) throws IOException {
    for (int attempt = 0; ; attempt++) {
      OpenPage page = openPage(key);
      if (page == null) {
        return -1;
      }
      if (offset + len > page.header.length) {
        corrupt(key); // shorter than the object says: not this version's page
        return -1;
      }
      try {
        PageFile.read(page.channel, page.header, offset, dst, dstOff, len);
      } catch (PageFile.CorruptPageException e) {
        corrupt(key);
        return -1;
      } catch (ClosedChannelException e) {
        open.asMap().remove(key, page);
        if (attempt > 0) {
          throw e;
        }
        continue;
      }
      index.touch(key);
      return len;
    }
  }

  private OpenPage openPage(PageKey key) throws IOException {
    OpenPage p = open.getIfPresent(key);
    if (p != null && p.channel.isOpen()) {
      return p;
    }
    Path path = pathOf(key);
    FileChannel ch;
    try {
      ch = io.openForRead(path);
    } catch (NoSuchFileException e) {
      return null;
    }
    try {
      PageFile.Header header = PageFile.readHeader(ch, key, ch.size());
      p = new OpenPage(ch, header);
      if (!index.contains(key)) {
        // written by another JVM, or before a restart: now this JVM accounts for it
        long size = ch.size();
        if (index.put(key, (int) size, dirOf(key), index.now()) < 0) {
          used.addAndGet(dirOf(key), size);
        }
      }
      OpenPage raced = open.asMap().putIfAbsent(key, p);
      if (raced != null && raced.channel.isOpen()) {
        closeQuietly(p); // another reader opened it first: share theirs
        return raced;
      }
      if (raced != null) {
        open.put(key, p);
      }
      return p;
    } catch (PageFile.CorruptPageException e) {
      closeQuietly(new OpenPage(ch, null));
      corrupt(key);
      return null;
    } catch (IOException | RuntimeException e) {
      closeQuietly(new OpenPage(ch, null));
      throw e;
    }
  }

  /**
   * Writes a page: temporary file, then an atomic rename.
   *
   * @throws IOException on a fault of the disk
   */
  void write(PageKey key, byte[] data, int length) throws IOException {
    Path target = pathOf(key);
    Path parent = target.getParent();
    if (!Files.isDirectory(parent)) {
      try {
        Files.createDirectory(parent, DIR_ATTR);
      } catch (FileAlreadyExistsException e) {
        // another writer made it
      }
    }
    Path tmp =
        parent.resolve(
            "."
                + target.getFileName()
                + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + ".tmp");
    ByteBuffer header = PageFile.header(key, data, length);
    try (FileChannel ch = io.createForWrite(tmp, FILE_ATTR)) {
      while (header.hasRemaining()) {
        ch.write(header);
      }
      ByteBuffer body = ByteBuffer.wrap(data, 0, length);
      while (body.hasRemaining()) {
        ch.write(body);
      }
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
    try {
      io.publish(tmp, target);
    } catch (IOException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
    long size = PageFile.headerSize(length) + (long) length;
    int dir = dirOf(key);
    int before = index.put(key, (int) size, dir, index.now());
    used.addAndGet(dir, before < 0 ? size : size - before);
    enforceQuota(dir);
  }

  private void enforceQuota(int dir) {
    long limit = quota[dir];
    if (used.get(dir) <= limit) {
      return;
    }
    long target = limit - limit / 20; // evict down to 95% so every write does not evict
    while (used.get(dir) > target) {
      PageKey victim = index.victim(dir);
      if (victim == null) {
        return;
      }
      delete(victim);
      evictions.incrementAndGet();
      counters.eviction();
    }
  }

  /** Deletes a page; missing pages are fine. */
  void delete(PageKey key) {
    OpenPage p = open.asMap().remove(key);
    if (p != null) {
      closeQuietly(p);
    }
    int size = index.remove(key);
    if (size > 0) {
      used.addAndGet(dirOf(key), -size);
    }
    try {
      Files.deleteIfExists(pathOf(key));
    } catch (IOException e) {
      // the next scan or eviction tries again
    }
  }

  private void corrupt(PageKey key) {
    counters.corruptPage();
    delete(key);
  }

  /**
   * Rebuilds the index from the directories: pages of every JVM and of earlier runs become known
   * (with their file time as last use), stale temporary files are removed.
   *
   * @throws IOException if a directory cannot be listed
   */
  void scan() throws IOException {
    long[] seen = new long[dirs.size()];
    DiskIndex fresh = new DiskIndex();
    long now = System.currentTimeMillis();
    for (int d = 0; d < dirs.size(); d++) {
      if (!Files.isDirectory(dirs.get(d))) {
        continue;
      }
      try (DirectoryStream<Path> subdirs = Files.newDirectoryStream(dirs.get(d))) {
        for (Path sub : subdirs) {
          if (!Files.isDirectory(sub)) {
            continue;
          }
          try (DirectoryStream<Path> pages = Files.newDirectoryStream(sub)) {
            for (Path page : pages) {
              String name = page.getFileName().toString();
              BasicFileAttributes attrs;
              try {
                attrs = Files.readAttributes(page, BasicFileAttributes.class);
              } catch (NoSuchFileException e) {
                continue;
              }
              if (name.startsWith(".")) {
                if (name.endsWith(".tmp")
                    && now - attrs.lastModifiedTime().toMillis() > STALE_TEMP_MS) {
                  Files.deleteIfExists(page);
                }
                continue;
              }
              PageKey key = PageKey.parse(name);
              if (key == null || dirOf(key) != d) {
                continue;
              }
              long age = (now - attrs.lastModifiedTime().toMillis()) / 1000;
              fresh.put(
                  key,
                  (int) attrs.size(),
                  d,
                  (int) Math.max(Integer.MIN_VALUE + 1L, fresh.now() - age));
              seen[d] += attrs.size();
            }
          }
        }
      }
    }
    index.replaceWith(fresh);
    for (int d = 0; d < dirs.size(); d++) {
      used.set(d, seen[d]);
      enforceQuota(d);
    }
  }

  /** Deletes every page in the directories (tests and benchmarks: a cold cache). */
  void clear() throws IOException {
    scan();
    for (int d = 0; d < dirs.size(); d++) {
      PageKey k;
      while ((k = index.victim(d)) != null) {
        delete(k);
      }
    }
    open.invalidateAll();
  }

  long usedBytes() {
    long sum = 0;
    for (int d = 0; d < dirs.size(); d++) {
      sum += used.get(d);
    }
    return sum;
  }

  long quotaBytes() {
    long sum = 0;
    for (long q : quota) {
      sum += q;
    }
    return sum;
  }

  long pages() {
    return index.size();
  }

  DiskIndex index() {
    return index;
  }

  void close() {
    open.invalidateAll();
    open.cleanUp();
  }

  private static void closeQuietly(OpenPage p) {
    try {
      p.channel.close();
    } catch (IOException e) {
      // closing a read-only channel cannot lose data
    }
  }
}
