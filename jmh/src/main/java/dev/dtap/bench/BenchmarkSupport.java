package dev.dtap.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;

/** Shared set-up for benchmarks: scratch directories and the JVM flags Hadoop needs on JDK 17. */
public final class BenchmarkSupport {
  /** {@code --add-opens} for Hadoop's mini clusters and reflection on JDK 17, for forked JVMs. */
  public static final String[] ADD_OPENS = {
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED",
    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.net=ALL-UNNAMED",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
  };

  private BenchmarkSupport() {}

  /**
   * A fresh scratch directory under {@code dtap.bench.dir} (default {@code target/bench}).
   *
   * @param prefix names the directory
   * @return the directory
   * @throws IOException if it cannot be created
   */
  public static File scratch(String prefix) throws IOException {
    File base = new File(System.getProperty("dtap.bench.dir", "target/bench")).getAbsoluteFile();
    if (!base.isDirectory() && !base.mkdirs()) {
      throw new IOException("Cannot create " + base);
    }
    return Files.createTempDirectory(base.toPath(), prefix).toFile().getCanonicalFile();
  }

  /**
   * Deletes a directory tree, best effort.
   *
   * @param dir the tree
   */
  public static void deleteTree(File dir) {
    org.apache.hadoop.fs.FileUtil.fullyDelete(dir);
  }
}
