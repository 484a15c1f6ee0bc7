package dev.dtap.cache.disk;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Pages on local disk: one immutable file per page under {@code <dir>/<2 hex>/<32 hex>}, spread
 * over the configured directories by key. Pages are written to a temporary file and renamed into
 * place, so every reader sees whole pages or none; every read verifies the checksums, and a page
 * that fails is deleted and reported absent, never returned. Directories are 0700 and files 0600.
 *
 * <p>Used by a task JVM caching on its own (several JVMs may share the directories: any of them
 * serves a page another wrote, because the file name is the key, and each accounts the quota over
 * the pages it knows) and by the host's cache service, which alone owns its directories.
 *
 * <p>Thread-safe.
 */
public final class DiskTier {
  private final DiskSettings settings;
  private final List<Path> dirs;
  private final DiskQuota quota;
  private final DiskEvents events;
  private final Cache<PageKey, OpenPage> open;
  private final DiskIo io;

  /** An open page file with its verified header, kept for random reads. */
  private static final class OpenPage {
    final FileChannel channel;
    final PageFile.Header header;

    OpenPage(FileChannel channel, PageFile.Header header) {
      this.channel = channel;
      this.header = header;
    }
  }

  /**
   * Sets the tier up; nothing is touched on disk until {@link #prepare()}.
   *
   * @param settings directories and quota
   * @param events where evictions and corrupt pages are reported
   * @param io the file operations (tests inject faults)
   */
  public DiskTier(DiskSettings settings, DiskEvents events, DiskIo io) {
    this.settings = settings;
    this.io = io;
    this.dirs = settings.dirs();
    this.events = events;
    this.quota = new DiskQuota(dirs.size());
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
  public void prepare() throws IOException {
    for (int i = 0; i < dirs.size(); i++) {
      Path d = dirs.get(i);
      PrivateFiles.createDirectory(d);
      quota.setQuota(i, settings.quotaOf(d));
    }
  }

  /**
   * @return the directories and quota
   */
  public DiskSettings settings() {
    return settings;
  }

  /**
   * @param key a page
   * @return the file that holds it (which may not exist)
   */
  public Path pathOf(PageKey key) {
    String name = key.fileName();
    return dirs.get(quota.dirOf(key)).resolve(name.substring(0, 2)).resolve(name);
  }

  /**
   * Reads and verifies a whole page.
   *
   * @param key the page
   * @return its bytes, or null when no (valid) page is on disk
   * @throws IOException on a fault of the disk (not for missing or corrupt pages)
   */
  public byte[] read(PageKey key) throws IOException {
    return readOpen(
        key,
        page -> {
          byte[] data = new byte[page.header.length()];
          if (data.length > 0) {
            PageFile.read(page.channel, page.header, 0, data, 0, data.length);
          }
          return data;
        });
  }

  /**
   * Reads and verifies part of a page.
   *
   * @return the bytes copied ({@code len}), or -1 when no (valid) page is on disk
   * @throws IOException on a fault of the disk
   */
  public int read(PageKey key, int offset, byte[] dst, int dstOff, int len) throws IOException {
    Integer copied =
        readOpen(
            key,
            page -> {
              if (offset + len > page.header.length()) {
                return null; // shorter than the object says: not this version's page
              }
              PageFile.read(page.channel, page.header, offset, dst, dstOff, len);
              return len;
            });
    return copied == null ? -1 : copied;
  }

  /** Reads from an open page; null when the page is not the one asked for. */
  @FunctionalInterface
  private interface PageRead<T> {
    T read(OpenPage page) throws IOException;
  }

  /**
   * Runs a read on the page's shared channel: a corrupt or mismatched page is dropped (null), a
   * channel closed under the reader (evicted from the open-file cache) is reopened once.
   */
  private <T> T readOpen(PageKey key, PageRead<T> read) throws IOException {
    for (int attempt = 0; ; attempt++) {
      OpenPage page = openPage(key);
      if (page == null) {
        return null;
      }
      T result;
      try {
        result = read.read(page);
      } catch (PageFile.CorruptPageException e) {
        result = null;
      } catch (ClosedChannelException e) {
        open.asMap().remove(key, page);
        if (attempt > 0) {
          throw e;
        }
        continue;
      }
      if (result == null) {
        corrupt(key);
        return null;
      }
      quota.touch(key);
      return result;
    }
  }

  private OpenPage openPage(PageKey key) throws IOException {
    OpenPage p = open.getIfPresent(key);
    if (p != null && p.channel.isOpen()) {
      return p;
    }
    FileChannel ch;
    try {
      ch = io.openForRead(pathOf(key));
    } catch (NoSuchFileException e) {
      return null;
    }
    try {
      p = new OpenPage(ch, PageFile.readHeader(ch, key, ch.size()));
      // written by another JVM, or before a restart: now this one accounts for it
      quota.found(key, ch.size());
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
   * Writes a page: temporary file, then an atomic rename, within the quota: room is made first by
   * evicting unpinned pages, and pages in use (pinned) or being written count against it.
   *
   * @return whether the page was written; false when pinned pages and pages being written leave no
   *     room under the quota (reported to {@link DiskEvents#noRoom})
   * @throws IOException on a fault of the disk
   */
  public boolean write(PageKey key, byte[] data, int length) throws IOException {
    int dir = quota.dirOf(key);
    long size = PageFile.headerSize(length) + (long) length;
    if (!quota.reserve(dir, size, this::evict)) {
      events.noRoom();
      return false;
    }
    try {
      writeFile(key, data, length);
      quota.written(key, size);
    } finally {
      quota.release(dir, size);
    }
    return true;
  }

  private void evict(PageKey victim) {
    delete(victim);
    events.eviction();
  }

  private void writeFile(PageKey key, byte[] data, int length) throws IOException {
    Path target = pathOf(key);
    Path parent = target.getParent();
    if (!Files.isDirectory(parent)) {
      try {
        Files.createDirectory(parent, PrivateFiles.DIR_ATTR);
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
    try (FileChannel ch = io.createForWrite(tmp, PrivateFiles.FILE_ATTR)) {
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
  }

  /**
   * Deletes a page; missing pages are fine.
   *
   * @param key the page
   */
  public void delete(PageKey key) {
    OpenPage p = open.asMap().remove(key);
    if (p != null) {
      closeQuietly(p);
    }
    try {
      Files.deleteIfExists(pathOf(key));
    } catch (IOException e) {
      // the next scan or eviction tries again
    }
    // after the file is gone: a scan that listed it sees this removal and drops the page
    quota.removed(key);
  }

  /**
   * Deletes a page that failed verification elsewhere (a reader of its open file).
   *
   * @param key the page
   */
  public void corrupt(PageKey key) {
    events.corruptPage();
    delete(key);
  }

  /**
   * Keeps a page from eviction until {@link #unpin}: a reader holds its file open.
   *
   * @param key the page
   */
  public void pin(PageKey key) {
    quota.pin(key);
  }

  /**
   * Releases one {@link #pin}.
   *
   * @param key the page
   */
  public void unpin(PageKey key) {
    quota.unpin(key);
  }

  /**
   * @return whether the page is known to be on disk
   */
  public boolean contains(PageKey key) {
    return quota.contains(key);
  }

  /**
   * Whether a page's file is on disk, indexed or not: one that another process wrote since this
   * one's last scan is found too.
   *
   * @param key the page
   * @return whether its file exists now
   */
  public boolean onDisk(PageKey key) {
    return quota.contains(key) || Files.exists(pathOf(key));
  }

  /**
   * Rebuilds the index from the directories: pages of every JVM and of earlier runs become known
   * (with their file time as last use), stale temporary files are removed.
   *
   * @throws IOException if a directory cannot be listed
   */
  public void scan() throws IOException {
    PageScanner scanner = new PageScanner(dirs, quota::dirOf);
    quota.scanBegins();
    boolean scanned = false;
    try {
      scanner.scan();
      scanned = true;
    } finally {
      if (!scanned) {
        quota.scanAbandoned();
      }
    }
    quota.replaceWith(scanner.index(), scanner.bytesPerDirectory()); // ends the scan, come what may
    for (int d = 0; d < dirs.size(); d++) {
      quota.trim(d, this::evict);
    }
  }

  /**
   * Deletes every page in the directories (tests and benchmarks: a cold cache).
   *
   * @throws IOException if a directory cannot be listed
   */
  public void clear() throws IOException {
    scan();
    for (int d = 0; d < dirs.size(); d++) {
      PageKey k;
      while ((k = quota.victim(d)) != null) {
        delete(k);
      }
    }
    open.invalidateAll();
  }

  /**
   * @return bytes of the pages known
   */
  public long usedBytes() {
    return quota.usedBytes();
  }

  /**
   * @return the quota over all directories
   */
  public long quotaBytes() {
    return quota.quotaBytes();
  }

  /**
   * @return whether the pages known fill under 90% of the quota
   */
  public boolean hasRoom() {
    long q = quotaBytes();
    return q > 0 && usedBytes() < q / 10 * 9;
  }

  /**
   * @return the number of pages known
   */
  public long pages() {
    return quota.pages();
  }

  /** Closes the open page files. */
  public void close() {
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
