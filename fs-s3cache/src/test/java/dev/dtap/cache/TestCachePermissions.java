package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;

/**
 * The cache keeps other tenants' bytes on a shared host: every directory and file it creates is its
 * owner's alone (rwx------ and rw-------), whatever the process umask.
 */
class TestCachePermissions {
  @Test
  void everyCacheDirectoryAndFileIsOwnerOnly() throws Exception {
    File root = LocalTaps.newDir("perm-root");
    File cacheDir = LocalTaps.newDir("perm-cache");
    CacheTestSupport.randomFile(new File(root, "f"), 5 * CacheTestSupport.PAGE + 7, 3);
    Configuration conf = CacheTestSupport.cachedTap("perm", root, cacheDir);
    conf.set("fs.dtap.cache.scan.admission", "first-read");
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    try (FileSystem fs = FileSystem.newInstance(URI.create("dtap://perm/"), conf);
        InputStream in = fs.open(new org.apache.hadoop.fs.Path("dtap://perm/f"))) {
      in.readAllBytes();
    }
    CacheTestSupport.flush();
    List<Path> created;
    try (Stream<Path> all = Files.walk(cacheDir.toPath())) {
      created = all.filter(p -> !p.equals(cacheDir.toPath())).collect(Collectors.toList());
    }
    assertThat(created.stream().filter(Files::isRegularFile)).as("page files written").isNotEmpty();
    for (Path p : created) {
      String perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
      assertThat(perms)
          .as(p.toString())
          .isEqualTo(Files.isDirectory(p) ? "rwx------" : "rw-------");
    }
  }
}
