package dev.dtap.it.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.job.CommitRecovery;
import dev.dtap.fs.testing.Await;
import dev.dtap.it.fixtures.ErrorText;
import dev.dtap.it.fixtures.FaultPlan.Fault;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.ReliabilityLog;
import dev.dtap.it.fixtures.S3aTimeoutFloor;
import dev.dtap.it.fixtures.ShapingProxy;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Jobs committed, or aborted, through the committer API as MapReduce drives it (a failed task
 * attempt is aborted and run again as a new attempt), while a proxy between the client and MinIO
 * resets the connection of every n-th request part-way through its answer, cuts it short, or
 * swallows the request (which the client must give up on within the tap's socket timeout). Whatever
 * the faults hit, the destination ends with the whole job's output, byte for byte, or none of it
 * (after the operator's {@code dtap committer recover} for a job commit that failed), and the
 * bucket holds no pending multipart upload: every upload the job started was completed or aborted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(ReliabilityLog.Failures.class)
class ITestCommitFaults {
  /** CI: 200 files from 20 tasks; the soak: -Ddtap.commit.tasks=100 -Ddtap.commit.files=100. */
  private static final int TASKS = Integer.getInteger("dtap.commit.tasks", 20);

  private static final int FILES_PER_TASK = Integer.getInteger("dtap.commit.files", 10);
  private static final int MAX_ATTEMPTS = 4;

  private MinioFixture minio;
  private ShapingProxy proxy;
  private S3aTimeoutFloor timeoutFloor;
  private String bucket;
  private ReliabilityLog log;
  private int jobs;

  @BeforeAll
  void start() throws IOException {
    // a swallowed request ends after the 3 s the proxy routes S3A with, not after S3A's 15 s floor
    timeoutFloor = S3aTimeoutFloor.lowerTo(ShapingProxy.FAULT_TIMEOUT);
    minio = MinioFixture.restartable(); // its own: one case kills it
    bucket = minio.createBucket("commit-faults");
    proxy = ShapingProxy.forFaults(minio.endpoint());
    log = ReliabilityLog.open(TASKS == 20 && FILES_PER_TASK == 10 ? "commits" : "commits-soak");
  }

  @AfterAll
  void stop() {
    if (timeoutFloor != null) {
      timeoutFloor.close(); // first: nothing after it may keep the JVM's floor lowered
    }
    if (proxy != null) {
      proxy.close();
    }
    if (minio != null) {
      minio.close();
    }
  }

  private Configuration conf(String tap, String committer, boolean throughProxy)
      throws IOException {
    Configuration conf = minio.addTap(new Configuration(), tap, bucket, "out");
    if (throughProxy) {
      proxy.route(conf, tap);
    }
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    conf.set("fs.dtap.committer.name", committer);
    conf.set("fs.dtap.committer.staging.dir", Files.createTempDirectory("dtap-staging").toString());
    conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", "dev.dtap.commit.DataTapCommitterFactory");
    return conf;
  }

  /**
   * The cases: every fault and end in CI; the soak (-Ddtap.commit.tasks=100
   * -Ddtap.commit.files=100) runs the case, 1 % resets through a job commit, for each
   * committer.
   */
  static Stream<Arguments> cases() {
    if (TASKS != 20 || FILES_PER_TASK != 10) {
      return Stream.of(
          Arguments.of("magic", "RESET", 100, "commit"),
          Arguments.of("staging", "RESET", 100, "commit"));
    }
    List<Arguments> all = new ArrayList<>();
    for (String committer : new String[] {"magic", "staging"}) {
      all.add(Arguments.of(committer, "RESET", 100, "commit"));
      all.add(Arguments.of(committer, "RESET", 10, "commit"));
      all.add(Arguments.of(committer, "TRUNCATE", 25, "commit"));
      all.add(Arguments.of(committer, "BLACK_HOLE", 300, "commit"));
      all.add(Arguments.of(committer, "RESET", 100, "abort"));
      all.add(Arguments.of(committer, "DOWN", 60, "commit"));
      all.add(Arguments.of(committer, "KILL", 60, "commit"));
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} committer, {1} {2}, job {3}")
  @MethodSource("cases")
  void theDestinationHoldsTheWholeJobOrNothingAndNoUploadIsLeft(
      String committer, String fault, int n, String end) throws Exception {
    int job = ++jobs;
    String tap = "cf" + job;
    Path dest = new Path("dtap://" + tap + "/job-" + job);
    Configuration conf = conf(tap, committer, true);
    conf.set(FileOutputFormat.OUTDIR, dest.toString());
    JobID id = new JobID("2026" + (200000 + job), job);
    JobContext jobContext = new JobContextImpl(conf, id);
    Map<String, byte[]> written = new TreeMap<>();
    String outcome;
    long requestsBefore = proxy.requests();
    long faultsBefore = proxy.faults().injectedTotal();
    long blackHolesBefore = proxy.faults().injected(Fault.BLACK_HOLE);
    proxy.faults().clearSwallows();
    boolean downInJobCommit = fault.equals("DOWN") || fault.equals("KILL");
    List<String[]> journaled = new ArrayList<>();
    boolean killed = fault.equals("KILL");
    ReliabilityLog.Case rc =
        log.begin(
            committer
                + " committer, "
                + (TASKS * FILES_PER_TASK)
                + " files from "
                + TASKS
                + " tasks, job "
                + end,
            killed
                ? "MinIO's process killed (SIGKILL) at the "
                    + n
                    + "th request of job commit, restarted after the job"
                : downInJobCommit
                    ? "store down from the "
                        + n
                        + "th request of job commit on, until after the job"
                    : faultWords(fault) + " on every " + n + "th request");
    if (!downInJobCommit) {
      proxy.faults().failEvery(Fault.valueOf(fault), n);
    }
    int retriedAttempts = 0;
    try {
      PathOutputCommitter am =
          PathOutputCommitterFactory.createCommitter(dest, attempt(conf, id, 0, 0));
      am.setupJob(jobContext);
      for (int task = 0; task < TASKS; task++) {
        retriedAttempts += runTask(conf, id, dest, task, written);
      }
      // every upload the tasks left for job commit, by id: each must end completed or aborted
      journaled.addAll(pendingUploads("out/job-" + job + "/"));
      if (end.equals("abort")) {
        am.abortJob(jobContext, JobStatus.State.FAILED);
        outcome = "aborted after every task committed";
      } else {
        try {
          if (killed) {
            proxy.faults().runAtRequest(n, minio.killer());
          } else if (downInJobCommit) {
            proxy.faults().storeDownAfter(n);
          }
          am.commitJob(jobContext);
          outcome = "committed";
        } catch (IOException e) {
          proxy.faults().heal();
          if (killed) {
            minio.restartIfKilled(); // the operator brings the store back, then recovers the job
          }
          assertHidesTheBackend(e);
          Path jobDest = new Path("dtap://" + tap + "/job-" + job);
          String r;
          try {
            r = describe(CommitRecovery.recover(jobDest, conf(tap, committer, false), false));
          } catch (IOException lost) {
            assertHidesTheBackend(lost);
            // the store lost an upload in its crash (a completion it was carrying out when it
            // was killed): the job cannot be made whole, so the operator rolls it back
            assertThat(killed).as("only a killed store loses uploads: " + lost).isTrue();
            r =
                "refused: the store lost an upload in its crash ("
                    + lost.getClass().getSimpleName()
                    + "); dtap committer abort: "
                    + describe(CommitRecovery.abort(jobDest, conf(tap, committer, false), false));
          }
          outcome =
              "job commit failed ("
                  + e.getClass().getSimpleName()
                  + " after the client's retries); "
                  + "dtap committer recover: "
                  + r;
        }
      }
    } finally {
      proxy.faults().heal();
      if (killed) {
        minio.restartIfKilled(); // whatever failed, the next cases need the store
      }
    }
    long requests = proxy.requests() - requestsBefore;
    long faults = proxy.faults().injectedTotal() - faultsBefore;
    String swallowed = "";
    if (fault.equals("BLACK_HOLE")) {
      // each swallowed request must have been given up by the client (and its work retried):
      // the figure is the longest the client waited: the tap's socket timeout, after the HTTP
      // client's wait for a 100-continue for a request with a body
      long injected = proxy.faults().injected(Fault.BLACK_HOLE) - blackHolesBefore;
      Await.until(
          "the client closed every connection whose request was swallowed",
          Duration.ofMinutes(2),
          () -> proxy.faults().swallowsEnded() == injected);
      rc.checked("connections with a swallowed request closed by the client: " + injected);
      swallowed =
          "; "
              + injected
              + " swallowed request(s), the longest given up after "
              + proxy.faults().longestSwallow().toMillis()
              + " ms (the tap's socket timeout, "
              + ShapingProxy.FAULT_TIMEOUT.toMillis()
              + " ms, after the HTTP client's wait of up to 3 s for a 100-continue)";
    }

    Map<String, byte[]> committed = committedFiles("out/job-" + job + "/");
    if (end.equals("abort") || committed.isEmpty()) {
      assertThat(committed).as("an aborted job leaves no output").isEmpty();
      assertThat(end.equals("abort") || outcome.contains("aborted")).as(outcome).isTrue();
    } else {
      assertThat(committed.keySet()).as("the whole job's output").isEqualTo(written.keySet());
      for (Map.Entry<String, byte[]> e : written.entrySet()) {
        assertThat(committed.get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
      }
    }
    for (String[] u : journaled) {
      assertThat(uploadGone(u[0], u[1]))
          .as("upload " + u[1] + " of " + u[0] + " completed or aborted")
          .isTrue();
    }
    List<String> pending = new ArrayList<>();
    for (MultipartUpload u : minio.pendingUploads(bucket, "out/job-" + job + "/")) {
      pending.add(u.key() + " " + u.uploadId());
    }
    assertThat(pending).as("uploads neither completed nor aborted").isEmpty();
    rc.checked(
            committed.isEmpty()
                ? "the destination listed: no file"
                : "every part file compared byte for byte with what the tasks wrote")
        .checked("each of the " + journaled.size() + " uploads the tasks left asked for by its id")
        .checked("MinIO's pending uploads under the destination listed: 0")
        .held(
            outcome
                + "; "
                + retriedAttempts
                + " task attempt(s) retried; output "
                + (committed.isEmpty() ? "none" : "whole and exact")
                + (downInJobCommit
                    ? "; " + requests + " requests"
                    : "; " + faults + " faults in " + requests + " requests")
                + swallowed,
            "0");
  }

  /**
   * A failed task attempt, job commit or recovery names neither the bucket nor the endpoint,
   * whatever the fault.
   */
  private void assertHidesTheBackend(IOException e) {
    assertThat(ErrorText.of(e))
        .as("the error hides the backend")
        .doesNotContain(bucket)
        .doesNotContain(proxy.endpoint().getAuthority());
  }

  private static String faultWords(String fault) {
    switch (fault) {
      case "RESET":
        return "connection reset";
      case "TRUNCATE":
        return "answer cut short";
      case "BLACK_HOLE":
        return "request swallowed (no answer)";
      default:
        throw new IllegalArgumentException("no words for the fault " + fault);
    }
  }

  private static String describe(List<CommitRecovery.JobReport> reports) {
    StringBuilder r = new StringBuilder();
    for (CommitRecovery.JobReport report : reports) {
      r.append(report.action)
          .append(" (")
          .append(report.filesCompleted)
          .append(" files completed, ")
          .append(report.uploadsAborted)
          .append(" uploads aborted)");
    }
    return r.toString();
  }

  /** The multipart uploads pending under a prefix, as key and upload id. */
  private List<String[]> pendingUploads(String prefix) {
    List<String[]> uploads = new ArrayList<>();
    for (MultipartUpload u : minio.pendingUploads(bucket, prefix)) {
      uploads.add(new String[] {u.key(), u.uploadId()});
    }
    return uploads;
  }

  /**
   * Whether an upload is no longer pending, asked by its id (a restarted MinIO lists no upload of
   * before its restart, so only its id tells).
   */
  private boolean uploadGone(String key, String uploadId) {
    try {
      minio.client().listParts(b -> b.bucket(bucket).key(key).uploadId(uploadId));
      return false;
    } catch (software.amazon.awssdk.services.s3.model.NoSuchUploadException e) {
      return true;
    }
  }

  /**
   * Runs one task to a committed attempt, retrying failed attempts; returns the attempts retried.
   */
  private int runTask(
      Configuration conf, JobID id, Path dest, int task, Map<String, byte[]> written)
      throws IOException, InterruptedException {
    IOException last = null;
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      TaskAttemptContext ctx = attempt(conf, id, task, attempt);
      PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, ctx);
      Map<String, byte[]> files = new TreeMap<>();
      try {
        c.setupTask(ctx);
        FileSystem fs = c.getWorkPath().getFileSystem(conf);
        Random random = new Random(task * 1000L + attempt);
        for (int f = 0; f < FILES_PER_TASK; f++) {
          byte[] data = new byte[1 + random.nextInt(FILES_PER_TASK > 10 ? 20_000 : 200_000)];
          random.nextBytes(data);
          String name = "part-" + task + "-" + f;
          try (FSDataOutputStream out = fs.create(new Path(c.getWorkPath(), name), true)) {
            out.write(data);
          }
          files.put(name, data);
        }
        if (c.needsTaskCommit(ctx)) {
          c.commitTask(ctx);
        }
        written.putAll(files);
        return attempt;
      } catch (IOException e) {
        last = e;
        try {
          c.abortTask(ctx); // as the MapReduce AM does before it runs a new attempt
        } catch (IOException abortFailed) {
          e.addSuppressed(abortFailed); // the attempt's own error stays the one reported
          throw e;
        }
        assertHidesTheBackend(e);
      }
    }
    throw new IOException("task " + task + " failed " + MAX_ATTEMPTS + " attempts", last);
  }

  private static TaskAttemptContext attempt(Configuration conf, JobID id, int task, int attempt) {
    return new TaskAttemptContextImpl(
        conf, new TaskAttemptID(new TaskID(id, TaskType.MAP, task), attempt));
  }

  /** The committed part files under a prefix, read straight from MinIO (not through the proxy). */
  private Map<String, byte[]> committedFiles(String prefix) {
    Map<String, byte[]> files = new TreeMap<>();
    for (S3Object o :
        minio.client().listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents()) {
      String name = o.key().substring(prefix.length());
      if (name.startsWith("part-")) {
        files.put(
            name,
            minio.client().getObjectAsBytes(b -> b.bucket(bucket).key(o.key())).asByteArray());
      }
    }
    return files;
  }
}
