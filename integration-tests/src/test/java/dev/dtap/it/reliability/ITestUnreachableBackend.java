package dev.dtap.it.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.dtap.it.fixtures.ErrorText;
import dev.dtap.it.fixtures.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A tap whose server cannot be reached. The real clients name the server by host and port, without
 * any URI: the AWS SDK and its HTTP client ({@code Connect to 127.0.0.1:41234 [/127.0.0.1] failed},
 * or the bucket's virtual host {@code bucket.localhost}), Hadoop's RPC client ({@code Call From
 * h/ip to localhost:41234 failed on connection exception}). What reaches the job names the dtap
 * path and neither the server nor the bucket, through the filesystem and through the committers.
 *
 * <p>No server is started: each case takes a port that was just free, on which nothing listens.
 */
class ITestUnreachableBackend {
  private static final String BUCKET = "unreachable-lake";

  enum Backend {
    /** An S3 store reached by path-style requests, as MinIO and Ceph usually are. */
    S3_PATH_STYLE,
    /** An S3 store reached by virtual-host requests: the client looks up bucket.host. */
    S3_VIRTUAL_HOST,
    /**
     * An S3 store whose host no resolver knows, named by one word as in a container network ({@code
     * minio}): the JDK names it alone, with no port or address to tell it from a word.
     */
    S3_UNKNOWN_HOST,
    /** An HDFS NameNode. */
    HDFS
  }

  /** A host name no resolver here knows; one word, as container networks name their servers. */
  private static final String UNKNOWN_HOST = "dtap-nowhere";

  static Stream<Arguments> cases() {
    List<Arguments> all = new ArrayList<>();
    for (Backend backend : Backend.values()) {
      for (String op : new String[] {"status", "list", "read", "write"}) {
        all.add(Arguments.of(backend, op));
      }
    }
    all.add(Arguments.of(Backend.S3_PATH_STYLE, "magic committer"));
    all.add(Arguments.of(Backend.S3_VIRTUAL_HOST, "magic committer"));
    all.add(Arguments.of(Backend.S3_UNKNOWN_HOST, "magic committer"));
    return all.stream();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("cases")
  void theErrorNamesTheDtapPathAndNeitherTheServerNorTheBucket(Backend backend, String op)
      throws Exception {
    int port = FreePorts.reserve(); // nothing listens, nor will
    Configuration conf = conf(backend, port);
    Path path = new Path("dtap://far/t/part-0");
    Throwable error;
    try (FileSystem fs = FileSystem.newInstance(URI.create("dtap://far/"), conf)) {
      error = catchThrowable(() -> run(fs, conf, op, path));
    }
    assertThat(error).as("%s on a tap nobody answers", op).isInstanceOf(IOException.class);
    String text = ErrorText.of(error);
    assertThat(text)
        .as("the error names the dtap path, even where the client's own message names none")
        .contains(op.endsWith("committer") ? "dtap://far/t" : path.toString());
    if (backend == Backend.HDFS) {
      assertThat(text).as("the NameNode is named as the tap's").contains("[server of tap 'far']");
    }
    assertThat(text)
        .as("the error hides the server and the bucket")
        .doesNotContain(":" + port)
        .doesNotContain(BUCKET)
        .doesNotContain(UNKNOWN_HOST);
  }

  private static void run(FileSystem fs, Configuration conf, String op, Path path)
      throws IOException {
    switch (op) {
      case "status":
        fs.getFileStatus(path);
        break;
      case "list":
        fs.listStatus(path);
        break;
      case "read":
        try (FSDataInputStream in = fs.open(path)) {
          in.read();
        }
        break;
      case "write":
        try (FSDataOutputStream out = fs.create(path, true)) {
          out.write(1);
        }
        break;
      default:
        Configuration job = new Configuration(conf);
        job.set(FileOutputFormat.OUTDIR, path.getParent().toString());
        job.set(
            "mapreduce.outputcommitter.factory.scheme.dtap",
            "dev.dtap.commit.DataTapCommitterFactory");
        job.set("fs.dtap.committer.name", "magic");
        JobID id = new JobID("2026" + 300001, 1);
        TaskAttemptContextImpl task =
            new TaskAttemptContextImpl(job, new TaskAttemptID(new TaskID(id, TaskType.MAP, 0), 0));
        PathOutputCommitter committer =
            PathOutputCommitterFactory.createCommitter(path.getParent(), task);
        JobContext context = new JobContextImpl(job, id);
        committer.setupJob(context);
        committer.setupTask(task);
        try (FSDataOutputStream out =
            fs.create(new Path(committer.getWorkPath(), "part-0"), true)) {
          out.write(1);
        }
        committer.commitTask(task);
        committer.commitJob(context);
    }
  }

  private static Configuration conf(Backend backend, int port) {
    Configuration conf = new Configuration();
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    String tap = "fs.dtap.tap.far.";
    if (backend == Backend.HDFS) {
      conf.set(tap + "uri", "hdfs://localhost:" + port + "/" + BUCKET);
      conf.set(tap + "conf.ipc.client.connect.max.retries", "0");
      conf.set(tap + "conf.ipc.client.connect.max.retries.on.timeouts", "0");
      return conf;
    }
    boolean pathStyle = backend != Backend.S3_VIRTUAL_HOST;
    String host =
        backend == Backend.S3_UNKNOWN_HOST ? UNKNOWN_HOST : pathStyle ? "127.0.0.1" : "localhost";
    conf.set(tap + "uri", "s3a://" + BUCKET + "/data");
    String s3a = tap + "conf.fs.s3a.";
    conf.set(s3a + "endpoint", "http://" + host + ":" + port);
    conf.set(s3a + "endpoint.region", "us-east-1");
    conf.set(s3a + "path.style.access", Boolean.toString(pathStyle));
    conf.set(s3a + "connection.ssl.enabled", "false");
    conf.set(
        s3a + "aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    conf.set(s3a + "access.key", "unreachable");
    conf.set(s3a + "secret.key", "unreachable-secret");
    conf.set(s3a + "attempts.maximum", "1");
    conf.set(s3a + "retry.limit", "1");
    conf.set(s3a + "retry.interval", "10ms");
    return conf;
  }
}
