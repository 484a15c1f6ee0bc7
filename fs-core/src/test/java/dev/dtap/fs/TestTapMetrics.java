package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.Await;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** Each dtap filesystem is a metrics2 source that JMX shows, and is gone from JMX once closed. */
class TestTapMetrics {
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  @Test
  void operationsBytesAndErrorsOfATapAreReadThroughJmx() throws Exception {
    File root = LocalTaps.newDir("metrics");
    Files.write(new File(root, "in").toPath(), new byte[1000]);
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "metered", root);
    ObjectName bean;
    try (FileSystem fs = FileSystem.newInstance(new Path("dtap://metered/").toUri(), conf)) {
      try (FSDataInputStream in = fs.open(new Path("dtap://metered/in"))) {
        in.readFully(new byte[1000]);
      }
      try (FSDataOutputStream out = fs.create(new Path("dtap://metered/out"))) {
        out.write(new byte[300]);
      }
      assertThat(fs.exists(new Path("dtap://metered/missing"))).isFalse();
      Set<ObjectName> names =
          JMX.queryNames(new ObjectName("Hadoop:service=dtap,name=DtapFileSystem-metered-*"), null);
      assertThat(names).hasSize(1);
      bean = names.iterator().next();
      // JMX serves a snapshot that Hadoop refreshes once per metrics period: poll for the values
      Await.until(
          "the tap's counters in JMX",
          Duration.ofSeconds(60),
          () ->
              attribute(bean, "dtap_bytes_read") == 1000
                  && attribute(bean, "dtap_bytes_written") == 300);
      assertThat(attribute(bean, "dtap_op_open")).isEqualTo(1);
      assertThat(attribute(bean, "dtap_op_create")).isEqualTo(1);
      assertThat(attribute(bean, "dtap_errors"))
          .as("a missing path is an answer, not an error")
          .isZero();
      assertThat(JMX.getAttribute(bean, "tag.tap")).isEqualTo("metered");
    }
    assertThat(JMX.isRegistered(bean)).as("closed: unregistered").isFalse();
  }

  @Test
  void metricsCanBeTurnedOff() throws Exception {
    Configuration conf =
        LocalTaps.addTap(LocalTaps.newConf(), "unmetered", LocalTaps.newDir("metrics"));
    conf.set("fs.dtap.metrics.enabled", "false");
    try (FileSystem fs = FileSystem.newInstance(new Path("dtap://unmetered/").toUri(), conf)) {
      fs.getFileStatus(new Path("dtap://unmetered/"));
      assertThat(
              JMX.queryNames(
                  new ObjectName("Hadoop:service=dtap,name=DtapFileSystem-unmetered-*"), null))
          .isEmpty();
    }
  }

  private static long attribute(ObjectName bean, String name) throws Exception {
    return ((Number) JMX.getAttribute(bean, name)).longValue();
  }
}
