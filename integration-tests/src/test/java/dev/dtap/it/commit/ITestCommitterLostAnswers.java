package dev.dtap.it.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.CommitTesting;
import dev.dtap.commit.job.CommitRecovery;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.S3aTimeoutFloor;
import dev.dtap.it.fixtures.ShapingProxy;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Acknowledgements lost on the way back: a proxy between S3A and MinIO lets one request of a job
 * reach the store and be carried out, then resets the connection as the store's answer starts.
 * S3A's client sends the request again, and a request that is not idempotent finds its own work
 * done: a conditional put answers 412, a complete finds its upload gone ({@code NoSuchUpload}, or
 * MinIO's {@code InvalidPart}). For each step of each committer the job still commits, with all its
 * output and no upload left pending, and a job whose commit failed on such an answer is recovered
 * whole by {@code dtap committer recover}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ITestCommitterLostAnswers {
  private static final int TASKS = 3;

  private MinioFixture minio;
  private ShapingProxy proxy;
  private S3aTimeoutFloor timeoutFloor;
  private String bucket;
  private int jobs;

  @TempDir File staging;

  @BeforeAll
  void start() throws IOException {
    timeoutFloor = S3aTimeoutFloor.lowerTo(ShapingProxy.FAULT_TIMEOUT);
    minio = MinioFixture.get();
    bucket = minio.createBucket("lost-answers");
    proxy = ShapingProxy.forFaults(minio.endpoint());
  }

  @AfterAll
  void stop() {
    if (timeoutFloor != null) {
      timeoutFloor.close();
    }
    if (proxy != null) {
      proxy.close();
    }
  }

  private Configuration conf(String tap, String committer) {
    Configuration conf = minio.addTap(new Configuration(), tap, bucket, "out");
    proxy.route(conf, tap);
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    conf.set("fs.dtap.committer.name", committer);
    conf.set("fs.dtap.committer.staging.dir", new File(staging, tap).getAbsolutePath());
    conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", "dev.dtap.commit.DataTapCommitterFactory");
    return conf;
  }

  /**
   * Each step whose answer is lost, as the request line (path-style) that carries it out: job
   * setup's conditional probe, a part upload, a magic file's journal entry, a task's conditional
   * record, job commit's intent, a complete, and {@code _SUCCESS}.
   */
  static Stream<Arguments> steps() {
    List<Arguments> all = new ArrayList<>();
    for (String committer : new String[] {"magic", "staging"}) {
      all.add(Arguments.of(committer, "probe", "^PUT \\S+/probe-"));
      all.add(Arguments.of(committer, "initiate", "^POST \\S+[?&]uploads"));
      all.add(Arguments.of(committer, "part", "^PUT \\S+[?&]partNumber="));
      all.add(Arguments.of(committer, "record", "^PUT \\S+/tasks/\\S+/\\d{5} "));
      all.add(Arguments.of(committer, "intent", "^PUT \\S+/commit "));
      all.add(Arguments.of(committer, "complete", "^POST \\S+[?&]uploadId="));
      all.add(Arguments.of(committer, "success", "^PUT \\S+/_SUCCESS "));
    }
    all.add(Arguments.of("magic", "journal", "^PUT \\S+/journal/"));
    return all.stream();
  }

  @ParameterizedTest(name = "{0} committer, the answer to its {1} lost")
  @MethodSource("steps")
  void aStepWhoseAnswerIsLostIsNotDoneTwiceNorTakenForAnothers(
      String committer, String step, String requestLine) throws Exception {
    String tap = "lost" + (++jobs);
    Configuration conf = conf(tap, committer);
    Path dest = new Path("dtap://" + tap + "/job-" + jobs);
    long lostBefore = proxy.faults().lostAnswers();
    proxy.faults().loseAnswerTo(requestLine, 0);
    List<String> records = new ArrayList<>();
    try {
      new CommitJob(conf, dest)
          .run(
              TASKS,
              () -> {
                for (S3Object o :
                    minio
                        .client()
                        .listObjectsV2Paginator(
                            b -> b.bucket(bucket).prefix("out/job-" + jobs + "/"))
                        .contents()) {
                  if (o.key().contains("/tasks/")) {
                    records.add(o.key());
                  }
                }
              });
    } finally {
      proxy.faults().heal();
    }
    assertThat(proxy.faults().lostAnswers() - lostBefore)
        .as("answers lost to %s", step)
        .isEqualTo(1);
    assertThat(records).as("task records, one per task").hasSize(TASKS);
    assertWholeOutput(conf, dest);
  }

  @Test
  void aJobCommitFailedOnALostCompleteIsRecoveredWhole() throws Exception {
    String tap = "lost" + (++jobs);
    Configuration conf = conf(tap, "magic");
    // no retry by the client: the lost answer fails job commit, as when the driver dies there
    Configuration once = new Configuration(conf);
    once.set("fs.dtap.tap." + tap + ".conf.fs.s3a.attempts.maximum", "0");
    once.set("fs.dtap.tap." + tap + ".conf.fs.s3a.retry.limit", "0");
    Path dest = new Path("dtap://" + tap + "/job-" + jobs);
    long lostBefore = proxy.faults().lostAnswers();
    // the second of the three completes: the first is done, the third never sent
    proxy.faults().loseAnswerTo("^POST \\S+[?&]uploadId=", 1);
    try {
      assertThatThrownBy(() -> new CommitJob(once, dest).run(TASKS, () -> {}))
          .isInstanceOf(IOException.class);
    } finally {
      proxy.faults().heal();
    }
    assertThat(proxy.faults().lostAnswers() - lostBefore).isEqualTo(1);
    List<CommitRecovery.JobReport> reports = CommitRecovery.recover(dest, conf, false);
    assertThat(reports).hasSize(1);
    assertThat(reports.get(0).action).as("recovery of %s", reports).contains("commit");
    assertWholeOutput(conf, dest);
  }

  /** Every task's file, byte for byte, {@code _SUCCESS}, and no upload left pending. */
  private void assertWholeOutput(Configuration conf, Path dest) throws IOException {
    CommitTesting.assertTaskFiles(dest, conf, TASKS);
    List<String> pending = new ArrayList<>();
    for (MultipartUpload u : minio.pendingUploads(bucket, "")) {
      pending.add(u.key());
    }
    assertThat(pending).as("uploads neither completed nor aborted").isEmpty();
  }
}
