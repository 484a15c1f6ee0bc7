package dev.dtap.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.Await;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.RepoRoot;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The metrics of a tap read through JMX, as an operator's console would: its filesystem's
 * operations and bytes, its read cache's hits and misses, and its committers' uploads, parts and
 * job commits, after a real read and a real job commit on MinIO.
 */
class ITestMetricsJmx {
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  @Test
  void cacheAndCommitterCountersOfATapAreInJmx() throws Exception {
    MinioFixture minio = MinioFixture.get();
    String bucket = minio.createBucket("jmx");
    minio
        .client()
        .putObject(b -> b.bucket(bucket).key("in/data"), RequestBody.fromBytes(new byte[2 << 20]));
    Configuration conf = new Configuration();
    minio.addTap(conf, "jmx", bucket, "");
    conf.set("fs.dtap.tap.jmx.cache", "true");
    conf.set(
        "fs.dtap.cache.dirs",
        new File(RepoRoot.data(), "jmx-cache-" + System.nanoTime()).getAbsolutePath());
    conf.setBoolean("fs.dtap.impl.disable.cache", false);

    FileSystem fs = new Path("dtap://jmx/").getFileSystem(conf);
    for (int i = 0; i < 2; i++) {
      try (FSDataInputStream in = fs.open(new Path("dtap://jmx/in/data"))) {
        in.readFully(new byte[2 << 20]);
      }
    }
    Path dest = new Path("dtap://jmx/out");
    new MagicJob(conf, dest, new JobID("202611240000", 9), "counted").commit();
    assertThat(fs.exists(new Path(dest, "part-0"))).isTrue();

    Set<ObjectName> names =
        JMX.queryNames(new ObjectName("Hadoop:service=dtap,name=DtapFileSystem-jmx-*"), null);
    assertThat(names).as("one filesystem of tap jmx is open").hasSize(1);
    ObjectName bean = names.iterator().next();
    // JMX serves a snapshot Hadoop refreshes once per metrics period (1 s in the tests)
    Await.until(
        "committed job in JMX",
        Duration.ofSeconds(60),
        () -> attribute(bean, "dtap_committer_jobs_committed") == 1);
    assertThat(attribute(bean, "dtap_op_open")).isEqualTo(2);
    assertThat(attribute(bean, "dtap_bytes_read")).isEqualTo(2L * (2 << 20));
    assertThat(attribute(bean, "dtap_cache_misses")).isPositive();
    assertThat(attribute(bean, "dtap_cache_hits")).as("the second read hits").isPositive();
    assertThat(attribute(bean, "dtap_committer_requests_initiate")).isEqualTo(1);
    assertThat(attribute(bean, "dtap_committer_requests_upload_part")).isEqualTo(1);
    assertThat(attribute(bean, "dtap_committer_requests_complete")).isEqualTo(1);
    assertThat(attribute(bean, "dtap_committer_jobs_aborted")).isZero();
    assertThat(JMX.getAttribute(bean, "tag.tap")).isEqualTo("jmx");
  }

  private static long attribute(ObjectName bean, String name) throws Exception {
    return ((Number) JMX.getAttribute(bean, name)).longValue();
  }
}
