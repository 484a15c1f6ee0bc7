package dev.dtap.it.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.CapabilityWalk;
import dev.dtap.it.fixtures.HdfsFixture;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.RepoRoot;
import java.io.File;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A tap's stream claims exactly what it can do on the backends users have: HDFS (whose stream
 * serves byte-buffer reads), S3A on MinIO (whose stream does not), the local filesystem, each with
 * the read cache off and on (the cache serves both byte-buffer reads itself). Every capability is
 * called and compared with what is advertised and implemented; see {@link CapabilityWalk}.
 */
class ITestStreamCapabilities {
  @ParameterizedTest(name = "{0} cache={1}")
  @CsvSource({"hdfs,false", "hdfs,true", "s3,false", "s3,true", "local,false", "local,true"})
  void everyCapabilityIsAdvertisedExactlyWhenServed(String backend, boolean cache)
      throws Exception {
    Configuration conf;
    String root;
    switch (backend) {
      case "hdfs":
        conf = HdfsFixture.get().conf();
        root = HdfsFixture.get().uri() + "/caps-" + System.nanoTime();
        break;
      case "s3":
        conf = new Configuration();
        MinioFixture minio = MinioFixture.get();
        String bucket = minio.createBucket("caps");
        minio.addTap(conf, "t", bucket, "caps");
        root = "s3a://" + bucket + "/caps";
        break;
      default:
        conf = new Configuration();
        root = new File(RepoRoot.data(), "caps-" + System.nanoTime()).toURI().toString();
    }
    conf.set("fs.dtap.tap.t.uri", root);
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    conf.setBoolean("fs.dtap.tap.t.cache", cache);
    conf.set(
        "fs.dtap.cache.dirs",
        new File(RepoRoot.data(), "caps-cache-" + System.nanoTime()).getAbsolutePath());
    String label = backend + (cache ? " cached" : "");
    try (FileSystem fs = FileSystem.newInstance(URI.create("dtap://t/"), conf)) {
      Path file = new Path("dtap://t/f");
      try (FSDataOutputStream out = fs.create(file, true)) {
        out.write(CapabilityWalk.DATA);
      }
      try (FSDataInputStream in = fs.open(file)) {
        Map<String, Boolean> served = CapabilityWalk.walk(label, in);
        if (cache || backend.equals("hdfs")) {
          assertThat(served.get(StreamCapabilities.READBYTEBUFFER))
              .as(label + " serves byte-buffer reads")
              .isTrue();
          assertThat(served.get(StreamCapabilities.PREADBYTEBUFFER))
              .as(label + " serves positioned byte-buffer reads")
              .isTrue();
        }
      }
    }
  }
}
