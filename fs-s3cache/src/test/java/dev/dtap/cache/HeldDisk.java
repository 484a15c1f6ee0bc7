package dev.dtap.cache;

import dev.dtap.cache.disk.DiskIo;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A disk whose page writes wait until the test lets them go. Thread-safe. */
public final class HeldDisk implements DiskIo {
  /** Counted down by the test to let every write, held or to come, go. */
  public final CountDownLatch release = new CountDownLatch(1);

  /** Writes that reached the disk, held or let go. */
  public final AtomicInteger writes = new AtomicInteger();

  /** A clock that stands still: a held write must not count as a slow disk and be bypassed. */
  @Override
  public long nanoTime() {
    return 0;
  }

  @Override
  public FileChannel createForWrite(Path path, FileAttribute<Set<PosixFilePermission>> perms)
      throws IOException {
    writes.incrementAndGet();
    try {
      if (!release.await(60, TimeUnit.SECONDS)) {
        throw new IOException("the test never released the disk");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    return DiskIo.super.createForWrite(path, perms);
  }
}
