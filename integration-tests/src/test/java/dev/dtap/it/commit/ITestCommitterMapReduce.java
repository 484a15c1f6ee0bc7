package dev.dtap.it.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.DataTapCommitterFactory;
import dev.dtap.commit.DataTapMapredCommitter;
import dev.dtap.it.fixtures.HdfsFixture;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.WordCountJobs;
import dev.dtap.it.fixtures.YarnFixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.commit.files.SuccessData;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobClient;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;

/**
 * Real MapReduce jobs on the YARN fixture (AM and tasks in their own JVMs) writing through each
 * dtap committer: WordCount with magic and staging into a MinIO tap and with the file committer
 * into an HDFS tap, and a map-only job on the old MapReduce API. The output must be exactly
 * WordCount's and, on MinIO, no multipart upload may be left pending at any output key.
 */
class ITestCommitterMapReduce {
  private static final int FILES = 4;
  private static final int LINES = 300;

  private static Configuration jobConf(String committer) throws IOException {
    Configuration conf = YarnFixture.get().conf();
    for (Map.Entry<String, String> e : S3Commits.conf()) {
      if (e.getKey().startsWith("fs.dtap.")) {
        conf.set(e.getKey(), e.getValue());
      }
    }
    conf.set("fs.dtap.tap.commitmr.uri", HdfsFixture.get().uri() + "/taps/commit-mr");
    conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", DataTapCommitterFactory.class.getName());
    conf.set("fs.dtap.committer.name", committer);
    return conf;
  }

  private static Map<String, Integer> expectedCounts() {
    Map<String, Integer> m = new TreeMap<>();
    for (int f = 0; f < FILES; f++) {
      for (int l = 0; l < LINES; l++) {
        m.merge("w" + (l % 17), 1, Integer::sum);
        m.merge("dtap", 1, Integer::sum);
      }
    }
    return m;
  }

  private static void writeInput(FileSystem fs, Path in) throws IOException {
    fs.delete(in, true);
    for (int f = 0; f < FILES; f++) {
      try (FSDataOutputStream out = fs.create(new Path(in, "f" + f + ".txt"))) {
        for (int l = 0; l < LINES; l++) {
          out.write(("w" + (l % 17) + " dtap\n").getBytes(StandardCharsets.UTF_8));
        }
      }
    }
  }

  private static Map<String, Integer> readCounts(FileSystem fs, Path out) throws IOException {
    Map<String, Integer> m = new TreeMap<>();
    for (FileStatus s : fs.listStatus(out, p -> p.getName().startsWith("part-"))) {
      try (FSDataInputStream in = fs.open(s.getPath())) {
        for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
          if (!line.isEmpty()) {
            String[] kv = line.split("\t");
            m.merge(kv[0], Integer.parseInt(kv[1]), Integer::sum);
          }
        }
      }
    }
    return m;
  }

  @ParameterizedTest
  @ValueSource(strings = {"magic", "staging", "file"})
  void wordCountCommitsThroughEachCommitter(String committer) throws Exception {
    Configuration conf = jobConf(committer);
    String tap = committer.equals("file") ? "commitmr" : S3Commits.TAP;
    Path base = new Path("dtap://" + tap + "/mr-" + committer);
    FileSystem fs = base.getFileSystem(conf);
    Path in = new Path(base, "in");
    Path out = new Path(base, "out");
    writeInput(fs, in);
    fs.delete(out, true);

    Job job = WordCountJobs.of(conf, "dtap " + committer + " committer wordcount", in, out);
    job.setNumReduceTasks(2);
    assertThat(job.waitForCompletion(true)).as(committer + " job").isTrue();

    assertThat(readCounts(fs, out)).isEqualTo(expectedCounts());
    FileStatus[] parts = fs.listStatus(out, p -> p.getName().startsWith("part-"));
    assertThat(parts).hasSize(2);
    if (!committer.equals("file")) {
      SuccessData success = SuccessData.load(fs, new Path(out, "_SUCCESS"));
      assertThat(success.getCommitter()).isEqualTo("dtap-" + committer);
      assertThat(success.getFilenames()).hasSize(2);
      assertThat(success.getJobId()).isEqualTo(job.getJobID().toString());
      assertThat(fs.listStatus(out)).as("nothing but output and _SUCCESS").hasSize(3);
      assertNoPendingUploads(parts);
    }
  }

  /** Asks MinIO for pending uploads at each output key (it lists uploads for an exact key). */
  private static void assertNoPendingUploads(FileStatus[] files) throws IOException {
    for (FileStatus f : files) {
      String key = "warehouse" + f.getPath().toUri().getPath();
      ListMultipartUploadsResponse r =
          MinioFixture.get()
              .client()
              .listMultipartUploads(b -> b.bucket(S3Commits.bucket()).prefix(key));
      assertThat(r.uploads()).as("pending uploads at " + key).isEmpty();
    }
  }

  /** A map-only identity job on the old API: each line passes through. */
  public static final class LineMapper extends MapReduceBase
      implements Mapper<LongWritable, Text, Text, Text> {
    @Override
    public void map(LongWritable k, Text v, OutputCollector<Text, Text> out, Reporter r)
        throws IOException {
      out.collect(v, new Text("seen"));
    }
  }

  @Test
  void oldApiJobCommitsThroughTheMagicCommitter() throws Exception {
    Configuration conf = jobConf("magic");
    Path base = new Path("dtap://" + S3Commits.TAP + "/mr-old-api");
    FileSystem fs = base.getFileSystem(conf);
    Path in = new Path(base, "in");
    Path out = new Path(base, "out");
    writeInput(fs, in);
    fs.delete(out, true);

    JobConf job = new JobConf(conf, ITestCommitterMapReduce.class);
    job.setJobName("dtap magic committer, old API");
    job.setMapperClass(LineMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setOutputCommitter(DataTapMapredCommitter.class);
    org.apache.hadoop.mapred.FileInputFormat.addInputPath(job, in);
    org.apache.hadoop.mapred.FileOutputFormat.setOutputPath(job, out);
    assertThat(JobClient.runJob(job).isSuccessful()).isTrue();

    FileStatus[] parts = fs.listStatus(out, p -> p.getName().startsWith("part-"));
    assertThat(parts).hasSize(FILES);
    long lines = 0;
    for (FileStatus p : parts) {
      try (FSDataInputStream s = fs.open(p.getPath())) {
        lines += new String(s.readAllBytes(), StandardCharsets.UTF_8).split("\n").length;
      }
    }
    assertThat(lines).isEqualTo((long) FILES * LINES);
    assertThat(SuccessData.load(fs, new Path(out, "_SUCCESS")).getCommitter())
        .isEqualTo("dtap-magic");
    assertThat(fs.listStatus(out)).as("no __magic or job directories left").hasSize(FILES + 1);
    assertNoPendingUploads(parts);
  }
}
