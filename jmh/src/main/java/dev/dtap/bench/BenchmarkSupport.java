package dev.dtap.bench;

import dev.dtap.cache.CacheAdmin;
import dev.dtap.it.fixtures.MinioFixture;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.util.functional.FutureIO;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Shared set-up for benchmarks: scratch directories, the JVM flags Hadoop needs on JDK 17, reads
 * through a cache, emptying a MinIO bucket between jobs, and the client's and store's processor
 * time.
 */
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
    if (!base.isDirectory() && !base.mkdirs() && !base.isDirectory()) {
      throw new IOException("Cannot create " + base);
    }
    return Files.createTempDirectory(base.toPath(), prefix).toFile().getCanonicalFile();
  }

  /**
   * Points a configuration's S3A at a MinIO, through another endpoint (a shaping proxy's) when
   * given, with S3A's filesystem cache off so that each benchmark gets its own client.
   *
   * @param conf the configuration to change
   * @param minio the store
   * @param endpoint the endpoint the client uses
   * @return the configuration
   */
  public static Configuration s3a(Configuration conf, MinioFixture minio, String endpoint) {
    minio.configureS3a(conf);
    conf.set("fs.s3a.endpoint", endpoint);
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    return conf;
  }

  /**
   * Adds the cached tap {@code dtap://bench/} over {@code s3a://bucket/bench}, reached through the
   * given endpoint, its pages under {@code cacheDir}; dtap's filesystem cache off.
   *
   * @param conf the configuration to change
   * @param minio the store
   * @param bucket the bucket
   * @param endpoint the endpoint the tap's S3A uses
   * @param cacheDir the cache's directory
   * @return the configuration
   */
  public static Configuration cachedBenchTap(
      Configuration conf, MinioFixture minio, String bucket, String endpoint, File cacheDir) {
    minio.addTap(conf, "bench", bucket, "bench");
    conf.set("fs.dtap.tap.bench.conf.fs.s3a.endpoint", endpoint);
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    conf.set("fs.dtap.tap.bench.cache", "true");
    conf.set("fs.dtap.cache.dirs", cacheDir.getAbsolutePath());
    return conf;
  }

  /**
   * Deletes a directory tree, best effort.
   *
   * @param dir the tree
   */
  public static void deleteTree(File dir) {
    org.apache.hadoop.fs.FileUtil.fullyDelete(dir);
  }

  /**
   * Reads a file whole with a read policy of {@code sequential}, checking its length.
   *
   * @param fs the filesystem
   * @param path the file
   * @param buffer the read buffer
   * @param size the file's length
   * @return the bytes read
   * @throws IOException on a read failure
   * @throws IllegalStateException if the file is not {@code size} bytes long
   */
  public static long readWhole(FileSystem fs, Path path, byte[] buffer, long size)
      throws IOException {
    long total = 0;
    try (FSDataInputStream in =
        FutureIO.awaitFuture(
            fs.openFile(path).opt("fs.option.openfile.read.policy", "sequential").build())) {
      int n;
      while ((n = in.read(buffer, 0, buffer.length)) > 0) {
        total += n;
      }
    }
    if (total != size) {
      throw new IllegalStateException("read " + total + " of " + size + " bytes");
    }
    return total;
  }

  /**
   * @return the bytes a dtap filesystem's cache read from the backend so far
   */
  public static long backendBytes(FileSystem fs) {
    Long v =
        ((IOStatisticsSource) fs).getIOStatistics().counters().get("dtap_cache_bytes_from_backend");
    return v == null ? 0 : v;
  }

  /**
   * Reads a dtap file whole until a pass needs nothing from the store, at most five passes: a lone
   * scan caches a page only the second time it meets it, and pages reach the disk in the
   * background.
   *
   * @param fs the dtap filesystem
   * @param path the file
   * @param buffer the read buffer
   * @param size the file's length
   * @throws IOException on a read failure
   * @throws InterruptedException if interrupted while pages are written
   */
  public static void warm(FileSystem fs, Path path, byte[] buffer, long size)
      throws IOException, InterruptedException {
    long before = -1;
    for (int pass = 0; pass < 5 && backendBytes(fs) != before; pass++) {
      before = backendBytes(fs);
      readWhole(fs, path, buffer, size);
      CacheAdmin.flushWrites();
    }
  }

  /**
   * Deletes every object of a bucket, a thousand keys per request.
   *
   * @param minio the store
   * @param bucket the bucket
   */
  public static void emptyBucket(MinioFixture minio, String bucket) {
    List<ObjectIdentifier> keys = new ArrayList<>();
    for (S3Object o : minio.client().listObjectsV2Paginator(b -> b.bucket(bucket)).contents()) {
      keys.add(ObjectIdentifier.builder().key(o.key()).build());
      if (keys.size() == 1000) {
        deleteKeys(minio, bucket, new ArrayList<>(keys));
        keys.clear();
      }
    }
    if (!keys.isEmpty()) {
      deleteKeys(minio, bucket, keys);
    }
  }

  private static void deleteKeys(MinioFixture minio, String bucket, List<ObjectIdentifier> keys) {
    minio.client().deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(keys).quiet(true)));
  }

  /**
   * @return the processor time this JVM has used so far, in nanoseconds
   */
  public static long clientCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * @param minio the store
   * @return the processor time its process has used so far, in seconds, or NaN when it is not a
   *     process of this machine
   */
  public static double serverCpuSeconds(MinioFixture minio) {
    return minio.serverCpuTime().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
  }
}
