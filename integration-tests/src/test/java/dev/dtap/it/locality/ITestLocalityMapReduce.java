package dev.dtap.it.locality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.Await;
import dev.dtap.it.fixtures.HdfsFixture;
import dev.dtap.it.fixtures.TapStatistics;
import dev.dtap.it.fixtures.WordCountJobs;
import dev.dtap.it.fixtures.YarnFixture;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.Test;

/**
 * A MapReduce job over a dtap tap with locality on, on the YARN fixture: every split names only
 * NodeManager hosts, no backend location call is made, and the job runs to completion.
 */
class ITestLocalityMapReduce {
  @Test
  void splitsNameNodeManagerHosts() throws Exception {
    YarnFixture yarn = YarnFixture.get();
    HdfsFixture hdfs = HdfsFixture.get();
    Configuration conf = yarn.conf();
    conf.set("fs.dtap.tap.lmr.uri", hdfs.uri() + "/taps/locality-mr");
    conf.set("fs.dtap.tap.lmr.locality", "true");
    conf.set("fs.dtap.locality.membership", "yarn");
    conf.set("fs.dtap.locality.refresh", "1s");
    conf.set("fs.dtap.tap.lmr.block.size", "8k");

    Set<String> nodeManagers = new HashSet<>();
    try (YarnClient client = YarnClient.createYarnClient()) {
      client.init(conf);
      client.start();
      for (NodeReport r : client.getNodeReports(NodeState.RUNNING)) {
        nodeManagers.add(r.getNodeId().getHost());
      }
    }
    assertThat(nodeManagers).isNotEmpty();

    FileSystem dtap = FileSystem.get(URI.create("dtap://lmr/"), conf);
    dtap.delete(new Path("dtap://lmr/"), true);
    for (int f = 0; f < 3; f++) {
      try (FSDataOutputStream out = dtap.create(new Path("dtap://lmr/in/f" + f + ".txt"))) {
        for (int line = 0; line < 500; line++) {
          out.write(("word" + (line % 13) + " dtap locality\n").getBytes(StandardCharsets.UTF_8));
        }
      }
    }
    // the resolver learns membership in the background; wait for it like a long-lived client
    Await.until(
        "YARN membership known to the resolver",
        Duration.ofSeconds(30),
        () ->
            dtap
                        .getFileBlockLocations(
                            dtap.getFileStatus(new Path("dtap://lmr/in/f0.txt")), 0, 1)[0]
                        .getHosts()
                        .length
                    > 0
                && counter(dtap, "dtap_locality_members") > 0);
    long backendBefore = counter(dtap, "dtap_backend_location_calls");

    Job job =
        WordCountJobs.of(
            conf, "dtap locality wordcount", new Path("dtap://lmr/in"), new Path("dtap://lmr/out"));

    // exactly what the job client computes at submission
    List<InputSplit> splits = new TextInputFormat().getSplits(job);
    assertThat(splits.size()).as("8 KiB blocks of ~11 KiB files").isEqualTo(6);
    for (InputSplit split : splits) {
      assertThat(split.getLocations()).isNotEmpty();
      assertThat(nodeManagers).containsAll(Arrays.asList(split.getLocations()));
    }
    assertThat(counter(dtap, "dtap_backend_location_calls")).isEqualTo(backendBefore);
    assertThat(counter(dtap, "dtap_backend_list_located_calls")).isZero();

    assertThat(job.waitForCompletion(true)).isTrue();
    assertThat(dtap.exists(new Path("dtap://lmr/out/_SUCCESS"))).isTrue();
    System.out.printf(
        "locality MR: %d splits, hosts %s, NodeManagers %s%n",
        splits.size(), Arrays.toString(splits.get(0).getLocations()), nodeManagers);
  }

  private static long counter(FileSystem fs, String name) {
    return TapStatistics.value(fs, name);
  }
}
