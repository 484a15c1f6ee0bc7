package dev.dtap.cache;

import static dev.dtap.cache.CacheTestSupport.randomFile;
import static dev.dtap.cache.CacheTestSupport.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.cache.disk.DiskIo;
import dev.dtap.cache.disk.PageKey;
import dev.dtap.fs.config.DataTapConfig;
import dev.dtap.fs.config.TapConfig;
import dev.dtap.fs.spi.OpenRequest;
import dev.dtap.fs.testing.LocalTaps;
import dev.dtap.fs.testing.LogCapture;
import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A failing cache disk never fails a read: full disk, permission errors, I/O errors and a slow disk
 * each send reads to the backend, are counted, and are logged once.
 */
class TestFailOpen {
  private static final int LENGTH = 10 * CacheTestSupport.PAGE + 99;

  private File root;
  private byte[] data;
  private FileSystem local;
  private Configuration conf;

  @BeforeEach
  void setUp() throws IOException {
    root = LocalTaps.newDir("failopen");
    data = randomFile(new File(root, "f.bin"), LENGTH, 3);
    conf = CacheTestSupport.cachedTap("fo", root, new File(LocalTaps.newDir("focache"), "pages"));
    conf.set("fs.dtap.cache.bypass.time", "0s");
    conf.set("fs.dtap.cache.deadline", "20ms");
    local = FileSystem.getLocal(conf);
  }

  @AfterEach
  void tearDown() throws IOException {
    local.close();
  }

  /** Opens a cache over a store with the given file operations, as fs-core would. */
  private DtapReadCache cache(DiskIo io) throws IOException {
    TapConfig tap = DataTapConfig.parse(conf, CacheKeys.all()).tap("fo");
    Configuration own = new Configuration(conf); // a fresh directory: no pages from earlier stores
    own.set("fs.dtap.cache.dirs", new File(LocalTaps.newDir("focache"), "pages").getAbsolutePath());
    PageStore store = PageStore.privateStore(CacheConfig.parse(own), io);
    return new DtapReadCache(new BackendTap(tap, conf, local), store);
  }

  private byte[] readTwice(DtapReadCache cache) throws Exception {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(new File(root, "f.bin").toURI());
    OpenRequest request = new OpenRequest(LocalTaps.path("fo", "/f.bin"), p, null, 0, null);
    byte[] first;
    try (FSDataInputStream in = cache.open(request)) {
      first = readAll(in, 7000);
    }
    cache.store().flush();
    try (FSDataInputStream in = cache.open(request)) {
      assertThat(readAll(in, 7000)).isEqualTo(first);
    }
    return first;
  }

  private static long fault(DtapReadCache cache, Faults.Cause cause) {
    return cache.store().storeStatistics().counters().get(cause.counter());
  }

  @Test
  void aFullDiskIsCountedAndReadsGoOn() throws Exception {
    DiskIo full =
        new DiskIo() {
          @Override
          public FileChannel createForWrite(
              Path path, FileAttribute<Set<PosixFilePermission>> perms) throws IOException {
            throw new FileSystemException(path.toString(), null, "No space left on device");
          }
        };
    DtapReadCache cache = cache(full);
    try (LogCapture logs = LogCapture.start()) {
      assertThat(readTwice(cache)).isEqualTo(data);
      assertThat(fault(cache, Faults.Cause.DISK_FULL)).isGreaterThan(0);
      assertThat(logs.text().split("disk full during", -1)).hasSize(2);
    } finally {
      cache.close();
    }
  }

  /** A disk whose page files may not be opened for reading. */
  private static DiskIo readsDenied() {
    return new DiskIo() {
      @Override
      public FileChannel openForRead(Path path) throws IOException {
        throw new AccessDeniedException(path.toString());
      }
    };
  }

  @Test
  void permissionAndIoErrorsAreCountedAndReadsGoOn() throws Exception {
    DiskIo denied = readsDenied();
    DtapReadCache cache = cache(denied);
    try {
      assertThat(readTwice(cache)).isEqualTo(data);
      assertThat(fault(cache, Faults.Cause.PERMISSION)).isGreaterThan(0);
    } finally {
      cache.close();
    }
    DiskIo broken =
        new DiskIo() {
          @Override
          public void publish(Path tmp, Path target) throws IOException {
            throw new IOException("Input/output error");
          }
        };
    cache = cache(broken);
    try {
      assertThat(readTwice(cache)).isEqualTo(data);
      assertThat(fault(cache, Faults.Cause.IO_ERROR)).isGreaterThan(0);
    } finally {
      cache.close();
    }
  }

  @Test
  void aBypassedDiskOffersNoPageAsCached() throws Exception {
    conf.set("fs.dtap.cache.bypass.time", "1h");
    DiskIo denied = readsDenied();
    DtapReadCache cache = cache(denied);
    // another JVM's page in the same directories
    PageStore other = PageStore.privateStore(cache.store().config(), DiskIo.NIO);
    try {
      PageKey key = new PageKey(42, 43);
      other.keepOnHost(key, new byte[1000]);
      other.flush();
      assertThat(cache.store().isCached(key)).as("before any fault").isTrue();

      assertThat(readTwice(cache)).isEqualTo(data);
      assertThat(fault(cache, Faults.Cause.PERMISSION)).isGreaterThan(0);

      assertThat(cache.store().isCached(key))
          .as("while the disk is bypassed its pages cannot be read")
          .isFalse();
    } finally {
      other.release();
      cache.close();
    }
  }

  /**
   * A disk on a clock of its own, which opening a page file for reading moves on by 40 ms (past the
   * 20 ms deadline) when {@code stalls} says so for that open (numbered from 1).
   */
  private static DiskIo stalling(AtomicInteger opens, IntPredicate stalls) {
    AtomicLong clock = new AtomicLong();
    return new DiskIo() {
      @Override
      public long nanoTime() {
        return clock.get();
      }

      @Override
      public FileChannel openForRead(Path path) throws IOException {
        if (stalls.test(opens.incrementAndGet())) {
          clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(40));
        }
        return DiskIo.super.openForRead(path);
      }
    };
  }

  @Test
  void aSlowDiskIsBypassed() throws Exception {
    DtapReadCache cache = cache(stalling(new AtomicInteger(), open -> true));
    try {
      assertThat(readTwice(cache)).isEqualTo(data);
      assertThat(fault(cache, Faults.Cause.SLOW_DISK)).isGreaterThan(0);
    } finally {
      cache.close();
    }
  }

  @Test
  void oneSlowDiskOperationIsNotAFault() throws Exception {
    AtomicInteger opens = new AtomicInteger();
    // one stall past the deadline, as a collection pause makes it
    DtapReadCache cache = cache(stalling(opens, open -> open == 1));
    try {
      assertThat(readTwice(cache)).isEqualTo(data);
      assertThat(opens.get()).as("pages read from the disk after the stall").isGreaterThan(1);
      assertThat(fault(cache, Faults.Cause.SLOW_DISK)).isZero();
    } finally {
      cache.close();
    }
  }

  @Test
  void aReadOnlyCacheDirectoryFailsOpen() throws Exception {
    File dir = new File(LocalTaps.newDir("rocache"), "pages");
    assertThat(dir.mkdirs()).isTrue();
    ReadOnly guard = ReadOnly.make(dir);
    try {
      Configuration c = CacheTestSupport.cachedTap("ro", root, dir);
      c.set("fs.dtap.cache.bypass.time", "0s");
      try (LogCapture logs = LogCapture.start();
          FileSystem fs = LocalTaps.open(c, "ro")) {
        for (int i = 0; i < 2; i++) {
          try (FSDataInputStream in = fs.open(LocalTaps.path("ro", "/f.bin"))) {
            assertThat(readAll(in, 7000)).isEqualTo(data);
          }
          CacheAdmin.flushWrites();
        }
        Long denied =
            ((IOStatisticsSource) fs)
                .getIOStatistics()
                .counters()
                .get(Faults.Cause.PERMISSION.counter());
        assertThat(denied).as("%s", guard).isGreaterThan(0);
        assertThat(logs.text()).contains("dtap cache: permission");
      }
    } finally {
      guard.undo();
    }
  }

  /**
   * Makes a directory unwritable for real: chmod for ordinary users; for root, whom permission bits
   * do not stop, the immutable attribute.
   */
  static final class ReadOnly {
    private final File dir;
    private final boolean immutable;

    private ReadOnly(File dir, boolean immutable) {
      this.dir = dir;
      this.immutable = immutable;
    }

    static ReadOnly make(File dir) throws Exception {
      boolean root = "root".equals(System.getProperty("user.name"));
      if (root) {
        Process p = new ProcessBuilder("chattr", "+i", dir.getAbsolutePath()).inheritIO().start();
        assertThat(p.waitFor())
            .as("chattr +i on " + dir + " (needs e2fsprogs and a supporting filesystem)")
            .isZero();
      } else {
        assertThat(dir.setWritable(false, false)).isTrue();
      }
      return new ReadOnly(dir, root);
    }

    void undo() throws Exception {
      if (immutable) {
        new ProcessBuilder("chattr", "-i", dir.getAbsolutePath()).inheritIO().start().waitFor();
      } else {
        dir.setWritable(true, true);
      }
    }

    @Override
    public String toString() {
      return immutable ? "immutable directory" : "read-only directory";
    }
  }
}
