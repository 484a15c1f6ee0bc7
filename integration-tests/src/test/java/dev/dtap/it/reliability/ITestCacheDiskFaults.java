package dev.dtap.it.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.cache.CacheAdmin;
import dev.dtap.fs.testing.LocalTaps;
import dev.dtap.it.fixtures.ReliabilityLog;
import dev.dtap.it.fixtures.RepoRoot;
import dev.dtap.it.fixtures.TapStatistics;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The cache's disk fails for real under a running reader: a 3 MiB tmpfs fills up (ENOSPC) while 10
 * MiB of files are read through the cache, and the filesystem is then remounted read-only (EROFS).
 * Every read returns exactly the file's bytes (from the backend while the disk fails), the failures
 * are counted as cache faults, and nothing fails the reader. Mounting needs root, which this
 * project's CI machine has; elsewhere the test fails saying so.
 */
@ExtendWith(ReliabilityLog.Failures.class)
class ITestCacheDiskFaults {
  private static final int FILE = 512 << 10;
  private static final int FILES = 20;

  private File mount;
  private File backend;
  private boolean mounted;
  private final List<byte[]> contents = new ArrayList<>();

  @BeforeEach
  void mountSmallDisk() throws Exception {
    mount = new File(RepoRoot.data(), "small-disk-" + System.nanoTime());
    assertThat(mount.mkdirs()).isTrue();
    sh(
        "mount -t tmpfs -o size=3m tmpfs " + mount.getAbsolutePath(),
        "This test mounts a 3 MiB tmpfs as the cache disk and needs root (CI runs as root): run"
            + " it as root, "
            + "or exclude ITestCacheDiskFaults");
    mounted = true;
    backend = LocalTaps.newDir("disk-faults-backend");
    for (int i = 0; i < FILES; i++) {
      byte[] b = new byte[FILE];
      new Random(i).nextBytes(b);
      Files.write(new File(backend, "f" + i).toPath(), b);
      contents.add(b);
    }
  }

  @AfterEach
  void unmount() throws Exception {
    CacheAdmin.flushWrites();
    if (mounted) {
      sh("umount " + mount.getAbsolutePath(), "could not unmount " + mount);
    }
  }

  private static void sh(String command, String advice) throws Exception {
    Process p = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(command).isTrue();
    assertThat(p.exitValue()).as(command + ": " + out.trim() + "; " + advice).isZero();
  }

  private FileSystem cachedFs() throws IOException {
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "df", backend);
    conf.setBoolean("fs.dtap.tap.df.cache", true);
    conf.set("fs.dtap.cache.dirs", new File(mount, "cache").getAbsolutePath());
    conf.set("fs.dtap.cache.page.size", "64k");
    conf.set("fs.dtap.cache.memory.size", "0");
    conf.set("fs.dtap.cache.max.size", "1g"); // the quota never stops it: the disk does
    conf.set("fs.dtap.cache.scan.admission", "first-read");
    conf.set("fs.dtap.cache.bypass.time", "0s"); // try the disk again at once: every write meets it
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    return FileSystem.newInstance(URI.create("dtap://df/"), conf);
  }

  private static long counter(FileSystem fs, String name) {
    return TapStatistics.value(fs, name);
  }

  private static long faults(FileSystem fs) {
    return counter(fs, "dtap_cache_fault_disk_full")
        + counter(fs, "dtap_cache_fault_permission")
        + counter(fs, "dtap_cache_fault_io_error")
        + counter(fs, "dtap_cache_fault_slow_disk");
  }

  private void readAllExactly(FileSystem fs) throws Exception {
    for (int i = 0; i < FILES; i++) {
      try (InputStream in = fs.open(new Path("dtap://df/f" + i))) {
        assertThat(in.readAllBytes()).as("f" + i).isEqualTo(contents.get(i));
      }
    }
    CacheAdmin.flushWrites();
  }

  @Test
  void aFullThenReadOnlyCacheDiskNeverFailsAReader() throws Exception {
    ReliabilityLog log = ReliabilityLog.open("cache-disk");
    try (FileSystem fs = cachedFs()) {
      ReliabilityLog.Case full =
          log.begin(
              "sequential reads of 10 MiB through the cache, twice",
              "cache disk (3 MiB tmpfs) fills up");
      readAllExactly(fs); // 10 MiB into a 3 MiB disk
      long fullFaults = counter(fs, "dtap_cache_fault_disk_full");
      assertThat(fullFaults).as("ENOSPC counted as a cache fault").isGreaterThan(0);
      readAllExactly(fs); // again: some pages from the full disk, the rest from the backend
      full.checked("10 files read whole twice, compared byte for byte")
          .checked("dtap_cache_fault_disk_full > 0")
          .held(
              "exact bytes; "
                  + fullFaults
                  + " disk-full faults counted, reads served from the backend",
              "0");

      ReliabilityLog.Case readOnly =
          log.begin(
              "sequential reads of 10 MiB through the cache, twice",
              "cache disk remounted read-only mid-run");
      long before = faults(fs);
      sh("mount -o remount,ro " + mount.getAbsolutePath(), "could not remount read-only");
      // pages already on the disk are still read from it; new ones cannot be written
      readAllExactly(fs);
      readAllExactly(fs);
      long after = faults(fs);
      assertThat(after).as("faults counted after the disk turned read-only").isGreaterThan(before);
      readOnly
          .checked("10 files read whole twice, compared byte for byte")
          .checked("cache faults counted after the remount")
          .held(
              "exact bytes; " + (after - before) + " more cache faults counted, no reader failed",
              "0");
    }
  }
}
