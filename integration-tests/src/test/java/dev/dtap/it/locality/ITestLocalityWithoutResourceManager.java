package dev.dtap.it.locality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.LocalTaps;
import dev.dtap.fs.testing.SilentServer;
import dev.dtap.it.fixtures.TapStatistics;
import dev.dtap.it.fixtures.WordCountJobs;
import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;

/**
 * A job still starts and runs when the ResourceManager that locality asks is up but silent:
 * Hadoop's own job client plans the splits of a dtap tap with locality on, gets host-less locations
 * after the locality timeout, and the job (local runner) counts every word.
 */
class ITestLocalityWithoutResourceManager {
  @Test
  void aJobStartsWhileTheResourceManagerDoesNotAnswer() throws Exception {
    try (SilentServer rm = new SilentServer()) {
      File root = LocalTaps.newDir("locality-silent-rm");
      Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "srm", root);
      conf.set("mapreduce.framework.name", "local");
      conf.set("fs.dtap.tap.srm.locality", "true");
      conf.set("fs.dtap.locality.membership", "yarn");
      conf.set("yarn.resourcemanager.address", "127.0.0.1:" + rm.port());
      conf.set("fs.dtap.locality.timeout", "500ms");
      conf.set("fs.dtap.locality.fallback", "none");
      conf.set("fs.dtap.tap.srm.block.size", "8k");
      FileSystem dtap = FileSystem.newInstance(URI.create("dtap://srm/"), conf);
      try {
        for (int f = 0; f < 3; f++) {
          try (FSDataOutputStream out = dtap.create(new Path("dtap://srm/in/f" + f + ".txt"))) {
            for (int line = 0; line < 500; line++) {
              out.write(("w" + (line % 7) + " locality\n").getBytes(StandardCharsets.UTF_8));
            }
          }
        }
        assertThat(rm.accepted()).as("connections before planning").isZero();

        Job job =
            WordCountJobs.of(
                conf,
                "dtap locality without a ResourceManager",
                new Path("dtap://srm/in"),
                new Path("dtap://srm/out"));
        assertThat(job.waitForCompletion(false)).isTrue();

        assertThat(job.getCounters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue())
            .isEqualTo(1500);
        Map<String, Long> counts = wordCounts(dtap, new Path("dtap://srm/out"));
        assertThat(counts).hasSize(8);
        assertThat(counts.get("locality")).isEqualTo(1500L);
        assertThat(rm.accepted()).as("planning asked the ResourceManager").isPositive();
        assertThat(counter(dtap, "dtap_locality_members")).as("membership never known").isZero();
      } finally {
        dtap.close();
      }
    }
  }

  private static Map<String, Long> wordCounts(FileSystem fs, Path dir) throws Exception {
    Map<String, Long> counts = new HashMap<>();
    for (FileStatus st : fs.listStatus(dir, p -> p.getName().startsWith("part-"))) {
      try (FSDataInputStream in = fs.open(st.getPath())) {
        for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
          if (!line.isEmpty()) {
            String[] kv = line.split("\t");
            counts.put(kv[0], Long.parseLong(kv[1]));
          }
        }
      }
    }
    return counts;
  }

  private static long counter(FileSystem fs, String name) {
    return TapStatistics.value(fs, name);
  }
}
