package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.CommitTesting;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.fs.testing.Canary;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * On Hadoop 3.3 a tap's store is S3A's own SDK v1 client and request factory: the line is
 * recognised at run time.
 */
class TestS3aV1Store {
  private static Configuration conf() {
    Configuration c = new Configuration(false);
    c.set("fs.dtap.impl", "dev.dtap.fs.DataTapFileSystem");
    c.setBoolean("fs.dtap.impl.disable.cache", true);
    c.set("fs.dtap.tap.lake.uri", "s3a://bucket/warehouse");
    c.set("fs.dtap.tap.lake.conf.fs.s3a.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
    c.set("fs.dtap.tap.lake.conf.fs.s3a.endpoint", "http://127.0.0.1:9");
    c.set("fs.dtap.tap.lake.conf.fs.s3a.path.style.access", "true");
    c.set("fs.dtap.tap.lake.conf.fs.s3a.connection.ssl.enabled", "false");
    c.set("fs.dtap.tap.lake.conf.fs.s3a.access.key", "AKIDDTAPTEST");
    c.set("fs.dtap.tap.lake.conf.fs.s3a.secret.key", Canary.secret("v1"));
    return c;
  }

  @Test
  void hadoop33TapsGetS3asSdkV1Store() throws IOException {
    Configuration conf = conf();
    try (FileSystem fs = FileSystem.newInstance(URI.create("dtap://lake/"), conf)) {
      MultipartStore store = CommitTesting.store(new Path("dtap://lake/"), conf);
      assertThat(store).isInstanceOf(S3aV1Store.class);
      assertThat(store.describe()).isEqualTo("dtap://lake/");
    }
  }
}
