package dev.dtap.it.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.cache.CacheAdmin;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.RepoRoot;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.util.functional.FutureIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The read cache over S3A on MinIO: pages belong to one object version (its ETag), an overwritten
 * object is never served from the old version's pages, a read never mixes versions, a supplied
 * status costs no HEAD, and concurrent readers of a cold object read it from the store once.
 */
class ITestS3Cache {
  private static final int PAGE = 64 << 10;
  private static final int LENGTH = 12 * PAGE + 321;

  private MinioFixture minio;
  private String bucket;
  private FileSystem fs;

  @BeforeEach
  void setUp() throws Exception {
    minio = MinioFixture.get();
    bucket = minio.createBucket("cache");
    Configuration conf = minio.addTap(new Configuration(), "s3c", bucket, "data");
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    conf.set("fs.dtap.tap.s3c.cache", "true");
    File dir = new File(RepoRoot.data(), "s3cache-" + System.nanoTime());
    conf.set("fs.dtap.cache.dirs", dir.getAbsolutePath());
    conf.set("fs.dtap.cache.page.size", "64k");
    conf.set("fs.dtap.cache.deadline", "1m"); // a GC pause on a loaded machine is no slow disk here
    conf.set("fs.dtap.cache.memory.size", "0");
    conf.set("fs.dtap.cache.scan.admission", "second-read"); // pages cached on their second read
    fs = FileSystem.newInstance(URI.create("dtap://s3c/"), conf);
  }

  @AfterEach
  void tearDown() throws IOException {
    fs.close();
  }

  private byte[] put(String key, long seed) {
    byte[] data = new byte[LENGTH];
    new Random(seed).nextBytes(data);
    minio.client().putObject(b -> b.bucket(bucket).key("data/" + key), RequestBody.fromBytes(data));
    return data;
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[10_000];
    int n;
    while ((n = in.read(buf)) > 0) {
      out.write(buf, 0, n);
    }
    return out.toByteArray();
  }

  private long counter(String name) {
    Long v = ((IOStatisticsSource) fs).getIOStatistics().counters().get(name);
    return v == null ? 0 : v;
  }

  @Test
  void anOverwrittenObjectIsReadAsItsNewVersion() throws Exception {
    put("obj", 1);
    try (FSDataInputStream in = fs.open(new Path("dtap://s3c/obj"))) {
      readAll(in);
    }
    CacheAdmin.flushWrites();
    byte[] v2 = put("obj", 2); // same key, same length, new ETag
    try (FSDataInputStream in = fs.open(new Path("dtap://s3c/obj"))) {
      assertThat(readAll(in)).isEqualTo(v2);
    }
  }

  @Test
  void aReadNeverMixesTwoVersions() throws Exception {
    byte[] v1 = put("mix", 3);
    Path p = new Path("dtap://s3c/mix");
    FileStatus status = fs.getFileStatus(p);
    try (FSDataInputStream in =
        FutureIO.awaitFuture(
            fs.openFile(p)
                .withFileStatus(status)
                .opt("fs.option.openfile.read.policy", "random")
                .build())) {
      byte[] first = new byte[1000];
      in.readFully(0, first);
      assertThat(first).isEqualTo(Arrays.copyOf(v1, 1000));
      // a lone reader's first touch streams through; the second caches the page (in the background)
      in.readFully(0, first);
      CacheAdmin.flushWrites();
      put("mix", 4); // overwritten while the stream is open
      // an uncached page of v1: the store refuses the old ETag (S3A's classic stream), or the
      // backend stream already holds v1 whole (Hadoop 3.5's analytics stream reads small objects
      // whole on open); either way it is never v2's bytes
      byte[] late = new byte[1000];
      try {
        in.readFully(8L * PAGE, late);
        assertThat(late)
            .as("a late read of the open stream")
            .isEqualTo(Arrays.copyOfRange(v1, 8 * PAGE, 8 * PAGE + 1000));
      } catch (IOException e) {
        assertThat(e).hasMessageContaining("dtap://s3c/mix").hasMessageNotContaining("s3a://");
      }
      // what is already cached is still v1 and only v1
      byte[] again = new byte[1000];
      in.readFully(0, again);
      assertThat(again).isEqualTo(first);
    }
  }

  @Test
  void aSuppliedStatusCostsNoHead() throws Exception {
    byte[] v = put("head", 5);
    Path p = new Path("dtap://s3c/head");
    FileStatus status = fs.getFileStatus(p);
    long heads = counter("object_metadata_request");
    try (FSDataInputStream in =
        FutureIO.awaitFuture(fs.openFile(p).withFileStatus(status).build())) {
      assertThat(readAll(in)).isEqualTo(v);
    }
    assertThat(counter("object_metadata_request")).isEqualTo(heads);
  }

  @Test
  void concurrentReadersOfAColdObjectReadTheStoreOnce() throws Exception {
    byte[] v = put("conc", 6);
    ExecutorService pool = Executors.newFixedThreadPool(16);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<byte[]>> results = new ArrayList<>();
    List<FSDataInputStream> streams = new ArrayList<>();
    for (int t = 0; t < 16; t++) {
      streams.add(fs.open(new Path("dtap://s3c/conc")));
    }
    for (FSDataInputStream stream : streams) {
      results.add(
          pool.submit(
              () -> {
                go.await();
                try (FSDataInputStream in = stream) {
                  return readAll(in);
                }
              }));
    }
    go.countDown();
    for (Future<byte[]> f : results) {
      assertThat(f.get()).isEqualTo(v);
    }
    pool.shutdown();
    CacheAdmin.flushWrites();
    assertThat(counter("dtap_cache_bytes_from_backend")).isEqualTo(LENGTH);
  }
}
