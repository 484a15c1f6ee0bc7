package dev.dtap.it.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.it.fixtures.MinioFixture;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.util.functional.FutureIO;
import org.junit.jupiter.api.Test;

/** openFile() with a status through dtap costs S3A no HEAD request, and ETags pass through. */
class ITestS3OpenFile {
  @Test
  void suppliedStatusSkipsTheHead() throws Exception {
    MinioFixture minio = MinioFixture.get();
    String bucket = minio.createBucket("openfile");
    Configuration conf = minio.addTap(new Configuration(), "of", bucket, "p");
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    try (FileSystem fs = FileSystem.newInstance(URI.create("dtap://of/"), conf)) {
      Path p = new Path("dtap://of/data.bin");
      try (FSDataOutputStream out = fs.create(p)) {
        out.write("0123456789".getBytes(StandardCharsets.UTF_8));
      }
      FileStatus st = fs.getFileStatus(p);
      assertThat(((EtagSource) st).getEtag()).isNotBlank();
      long heads = heads(fs);
      try (FSDataInputStream in =
          FutureIO.awaitFuture(
              fs.openFile(p)
                  .withFileStatus(st)
                  .opt("fs.option.openfile.read.policy", "random")
                  .build())) {
        byte[] buf = new byte[3];
        in.readFully(4, buf);
        assertThat(new String(buf, StandardCharsets.UTF_8)).isEqualTo("456");
      }
      assertThat(heads(fs)).as("HEAD requests for an open with a status").isEqualTo(heads);
      // without a status S3A has to ask
      try (FSDataInputStream in = fs.open(p)) {
        assertThat(in.read()).isEqualTo('0');
      }
      assertThat(heads(fs)).isGreaterThan(heads);
    }
  }

  private static long heads(FileSystem fs) {
    IOStatistics stats = ((IOStatisticsSource) fs).getIOStatistics();
    Long v = stats.counters().get("object_metadata_request");
    return v == null ? 0 : v;
  }
}
