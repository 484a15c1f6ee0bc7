package dev.dtap.fs.testing;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Builds site configurations with taps over local directories, and opens dtap filesystems that
 * bypass Hadoop's filesystem cache (each test gets its own instance and closes it).
 */
public final class LocalTaps {
  private LocalTaps() {}

  /**
   * @return a configuration with Hadoop's defaults and no taps
   */
  public static Configuration newConf() {
    Configuration conf = new Configuration();
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    return conf;
  }

  /**
   * Creates a fresh local directory under the build's test data directory.
   *
   * @param prefix names the directory
   * @return the directory
   * @throws IOException if it cannot be created
   */
  public static File newDir(String prefix) throws IOException {
    File base = new File(System.getProperty("test.build.data", "target/test-data"));
    Files.createDirectories(base.toPath()); // safe when another JVM creates it at once
    return Files.createTempDirectory(base.toPath(), prefix).toFile().getCanonicalFile();
  }

  /**
   * Adds a tap over a local directory.
   *
   * @param conf the configuration to change
   * @param tap tap name
   * @param root local root directory
   * @return the configuration
   */
  public static Configuration addTap(Configuration conf, String tap, File root) {
    conf.set("fs.dtap.tap." + tap + ".uri", root.toURI().toString());
    return conf;
  }

  /**
   * Opens a dtap filesystem for one tap, outside Hadoop's cache.
   *
   * @param conf the configuration
   * @param tap the tap
   * @return an instance the caller must close
   * @throws IOException if it cannot be opened
   */
  public static FileSystem open(Configuration conf, String tap) throws IOException {
    return FileSystem.newInstance(URI.create("dtap://" + tap + "/"), conf);
  }

  /**
   * A dtap path.
   *
   * @param tap the tap
   * @param path absolute path within the tap
   * @return {@code dtap://tap/path}
   */
  public static Path path(String tap, String path) {
    return new Path("dtap://" + tap + path);
  }
}
