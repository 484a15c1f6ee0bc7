package dev.dtap.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dtap.fs.testing.Await;
import dev.dtap.it.fixtures.FaultPlan;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.ReliabilityLog;
import dev.dtap.it.fixtures.ShapingProxy;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Spark through the drop-in jar, as users run it: {@code spark-submit} in local mode with Spark's
 * jars on the class path, the dtap-hadoop jar passed with {@code --jars}, taps set through {@code
 * spark.hadoop.*}; the committers bound through Spark's hadoop-cloud {@code
 * PathOutputCommitProtocol}; MinIO and HDFS behind the taps.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(ReliabilityLog.Failures.class)
class ITestSparkDropIn {
  private static final long ROWS = 200_000;

  /** The application's table has partitions 0..7. */
  private static final int PARTITIONS = 8;

  private MinioFixture minio;
  private String bucket;
  private ReliabilityLog sparkFaults;
  private HdfsCluster hdfs;
  private SparkStandalone standalone;
  private File dir;

  @BeforeAll
  void start() throws IOException {
    minio = MinioFixture.get();
    bucket = minio.createBucket("e2e-spark");
    hdfs = HdfsCluster.start("spark-hdfs");
    dir = HdfsCluster.newDir("spark");
  }

  @AfterAll
  void stop() throws IOException {
    if (standalone != null) {
      standalone.close();
    }
    if (hdfs != null) {
      hdfs.close();
    }
  }

  /** The fault cases' log, opened (emptied) by the first case that runs, not by the class. */
  private synchronized ReliabilityLog faultLog() {
    if (sparkFaults == null) {
      sparkFaults = ReliabilityLog.open("engines-spark");
    }
    return sparkFaults;
  }

  private synchronized SparkStandalone standalone() throws IOException {
    if (standalone == null) {
      standalone = SparkStandalone.start(new File(dir, "standalone"));
    }
    return standalone;
  }

  /**
   * A spark-submit with the taps {@code lake} (S3), {@code arch} (HDFS) and {@code loc} (local).
   */
  private SparkSubmit submit() {
    SparkSubmit s = new SparkSubmit(dir);
    // a jar passed with --jars joins the class path after Hadoop has looked for filesystems: Spark
    // finds the scheme by this setting (docs/spark.md)
    s.hadoop("fs.dtap.impl", "dev.dtap.fs.DataTapFileSystem");
    for (Map.Entry<String, String> e :
        minio.s3aSettings(minio.accessKey(), minio.secretKey()).entrySet()) {
      if (!e.getKey().equals("fs.s3a.aws.credentials.provider")) { // S3A's default list decides
        s.hadoop("fs.dtap.tap.lake.conf." + e.getKey(), e.getValue());
        s.hadoop("fs.dtap.tap.lakenc.conf." + e.getKey(), e.getValue());
        s.hadoop(e.getKey(), e.getValue()); // for the same data read through s3a:// directly
      }
    }
    s.hadoop("fs.dtap.tap.lake.uri", "s3a://" + bucket + "/lake");
    s.hadoop("fs.dtap.tap.lake.cache", "true");
    s.hadoop("fs.dtap.tap.lakenc.uri", "s3a://" + bucket + "/lake");
    s.hadoop("fs.dtap.tap.arch.uri", hdfs.hdfs + "/arch");
    s.hadoop("fs.dtap.tap.arch.cache", "true");
    s.hadoop("fs.dtap.tap.archnc.uri", hdfs.hdfs + "/arch");
    // a local directory whose name has a space, as Hadoop's Path allows: raw and percent-encoded
    s.hadoop("fs.dtap.tap.loc.uri", "file://" + localData());
    s.hadoop("fs.dtap.tap.loc.cache", "true");
    s.hadoop("fs.dtap.tap.locnc.uri", "file://" + localData().replace(" ", "%20"));
    s.hadoop("fs.dtap.cache.dirs", new File(dir, "cache").getAbsolutePath());
    s.hadoop("fs.dtap.cache.deadline", "1m"); // a GC pause on a loaded machine is no slow disk here
    s.hadoop("fs.dtap.committer.staging.dir", new File(dir, "staging").getAbsolutePath());
    return s;
  }

  private String localData() {
    return new File(dir, "local data").getAbsolutePath();
  }

  private static List<String> digest(SparkSubmit.SparkRun run, String label) {
    List<String> lines = run.lines(label);
    assertThat(lines).as(label + " digest lines of " + run.log).isNotEmpty();
    return lines;
  }

  @ParameterizedTest
  @ValueSource(strings = {"magic", "staging"})
  @Tag("smoke")
  void partitionedParquetThroughTheCommitterIsExactWithoutCopies(String committer)
      throws Exception {
    String prefix = "lake/spark/" + committer;
    Map<String, Long> before = minio.requestCounts();
    SparkSubmit.SparkRun run =
        submit()
            .dtapCommitters(committer)
            .run(
                "write-" + committer,
                "write",
                "--format",
                "parquet",
                "--dest",
                "dtap://lake/spark/" + committer,
                "--rows",
                Long.toString(ROWS),
                "--slices",
                "4",
                "--verify",
                "true");
    Map<String, Long> delta = MinioFixture.delta(before, minio.requestCounts());
    List<String> wrote = digest(run, "WROTE");
    assertThat(wrote).as("partitions written").hasSize(PARTITIONS);
    assertThat(digest(run, "READ")).as("what the job read back").isEqualTo(wrote);
    assertThat(delta.getOrDefault("CopyObject", 0L)).as("copy requests").isZero();
    assertThat(delta.getOrDefault("CompleteMultipartUpload", 0L))
        .as("uploads completed by job commit")
        .isPositive();

    List<String> keys = keys(prefix + "/");
    List<String> data =
        keys.stream()
            .filter(k -> k.matches(".*/part=\\d+/part-[^/]+\\.parquet"))
            .collect(Collectors.toList());
    assertThat(keys)
        .as("nothing but data files and _SUCCESS is left")
        .containsOnlyElementsOf(concat(data, prefix + "/_SUCCESS"));
    JsonNode success = successOf(prefix + "/_SUCCESS");
    assertThat(success.get("name").asText())
        .isEqualTo("org.apache.hadoop.fs.s3a.commit.files.SuccessData/1");
    assertThat(success.get("committer").asText()).isEqualTo("dtap-" + committer);
    assertThat(success.get("filenames")).as("_SUCCESS lists every file").hasSize(data.size());
  }

  /**
   * A partitioned write through the magic committer while a proxy resets every 25th connection of
   * the job's store traffic part-way through its answer: the job either commits the whole table,
   * read back equal to what it wrote, or fails leaving no data file; no upload is left pending.
   */
  @ParameterizedTest
  @ValueSource(strings = {"magic", "staging"})
  void aWriteUnderConnectionResetsCommitsWholeOrNothing(String committer) throws Exception {
    String prefix = "lake/spark/faults-" + committer;
    ReliabilityLog.Case rc =
        faultLog()
            .begin(
                "Spark partitioned Parquet write of "
                    + ROWS
                    + " rows through an S3 tap ("
                    + committer
                    + " committer, local[2,4])",
                "connection reset part-way through every 25th answer of the job's store traffic");
    String outcome;
    long faults;
    long requests;
    try (ShapingProxy proxy = ShapingProxy.forFaults(minio.endpoint())) {
      proxy.faults().failEvery(FaultPlan.Fault.RESET, 25);
      SparkSubmit.SparkRun run =
          submit()
              .hadoop("fs.dtap.tap.lake.conf.fs.s3a.endpoint", proxy.endpoint().toString())
              .hadoop("fs.dtap.tap.lake.conf.fs.s3a.retry.interval", "10ms")
              .hadoop("fs.dtap.tap.lake.conf.fs.s3a.retry.throttle.interval", "10ms")
              .dtapCommitters(committer)
              .runAllowingFailure(
                  "write-faults-" + committer,
                  "write",
                  "--format",
                  "parquet",
                  "--dest",
                  "dtap://" + prefix,
                  "--rows",
                  Long.toString(ROWS),
                  "--slices",
                  "4",
                  "--verify",
                  "true");
      faults = proxy.faults().injectedTotal();
      requests = proxy.requests();
      proxy.faults().heal();
      if (run.exit == 0) {
        assertThat(digest(run, "READ")).as("read back").isEqualTo(digest(run, "WROTE"));
        assertThat(keys(prefix + "/")).contains(prefix + "/_SUCCESS");
        rc.checked("the table read back by Spark, its digest against the written rows' digest");
        outcome = "committed: the whole table, read back equal to what was written";
      } else {
        assertThat(keys(prefix + "/"))
            .as("no data file and no _SUCCESS after a failed job")
            .noneMatch(k -> k.endsWith(".parquet") || k.endsWith("_SUCCESS"));
        rc.checked("the table's prefix listed: no data file, no _SUCCESS");
        outcome = "the job failed after its task retries; no data file, no _SUCCESS";
      }
    }
    awaitNoUploadsUnder(prefix + "/");
    rc.checked("MinIO's pending uploads under the table's prefix listed: 0")
        .held(outcome + " (" + faults + " faults in " + requests + " requests)", "0");
  }

  @Test
  void aTaskThatFailsOnceIsRetriedAndTheOutputIsExact() throws Exception {
    SparkSubmit.SparkRun run =
        submit()
            .dtapCommitters("magic")
            .run(
                "fail-once",
                "write",
                "--format",
                "parquet",
                "--dest",
                "dtap://lake/spark/retried",
                "--rows",
                Long.toString(ROWS),
                "--slices",
                "4",
                "--fail-once",
                "true",
                "--verify",
                "true");
    assertThat(run.lines("TASKS")).as("task outcomes").hasSize(1);
    assertThat(run.lines("TASKS").get(0)).as("a task attempt failed").doesNotContain("failed=0");
    assertThat(digest(run, "READ"))
        .as("the output after the retry")
        .isEqualTo(digest(run, "WROTE"));
    awaitNoUploadsUnder("lake/spark/retried/");
  }

  @ParameterizedTest
  @ValueSource(strings = {"magic", "staging"})
  void withSpeculationDuplicateAttemptsLeaveExactlyOneOutputPerTask(String committer)
      throws Exception {
    String prefix = "lake/spark/speculation-" + committer;
    SparkSubmit.SparkRun run =
        submit()
            .master(standalone().masterUrl)
            .conf("spark.executor.memory", "512m")
            .conf("spark.speculation", "true")
            .conf("spark.speculation.interval", "100ms")
            .conf("spark.speculation.multiplier", "2")
            .conf("spark.speculation.quantile", "0.5")
            .conf("spark.speculation.minTaskRuntime", "500ms")
            .dtapCommitters(committer)
            .run(
                "speculation-" + committer,
                "write",
                "--format",
                "parquet",
                "--dest",
                "dtap://" + prefix,
                "--rows",
                Long.toString(ROWS),
                "--slices",
                "4",
                "--straggle",
                new File(dir, "markers-" + committer).getAbsolutePath(),
                "--verify",
                "true");
    assertThat(run.lines("TASKS")).as("task outcomes").hasSize(1);
    assertThat(run.lines("TASKS").get(0))
        .as("Spark ran a speculative attempt")
        .doesNotContain("speculative=0");
    assertThat(digest(run, "READ"))
        .as("the output with two attempts of a task")
        .isEqualTo(digest(run, "WROTE"));
    List<String> data =
        keys(prefix + "/").stream()
            .filter(k -> k.endsWith(".parquet"))
            .collect(Collectors.toList());
    for (int task = 0; task < 4; task++) {
      String name = String.format("/part-%05d-", task);
      assertThat(data.stream().filter(k -> k.contains(name)).count())
          .as("files of task " + task + ": one per partition, from one attempt")
          .isEqualTo(PARTITIONS);
    }
    awaitNoUploadsUnder(prefix + "/");
  }

  @ParameterizedTest
  @ValueSource(strings = {"lake", "arch"})
  void dynamicPartitionOverwriteReplacesExactlyTheWrittenPartitions(String tap) throws Exception {
    String dest = "dtap://" + tap + "/spark/dpo";
    Map<String, Long> before = minio.requestCounts();
    SparkSubmit.SparkRun first =
        submit()
            .dtapCommitters(null)
            .run(
                "dpo-first-" + tap,
                "write",
                "--format",
                "parquet",
                "--dest",
                dest,
                "--rows",
                "80000",
                "--gen",
                "1");
    SparkSubmit.SparkRun second =
        submit()
            .dtapCommitters(null)
            .conf("spark.sql.sources.partitionOverwriteMode", "dynamic")
            .run(
                "dpo-" + tap,
                "write",
                "--format",
                "parquet",
                "--dest",
                dest,
                "--rows",
                "80000",
                "--gen",
                "2",
                "--partitions",
                "1,3",
                "--verify",
                "true");
    List<String> expected = new ArrayList<>();
    for (String line : digest(first, "WROTE")) {
      if (!line.startsWith("part=1 ") && !line.startsWith("part=3 ")) {
        expected.add(line);
      }
    }
    expected.addAll(digest(second, "WROTE"));
    expected.sort(null);
    List<String> read = new ArrayList<>(digest(second, "READ"));
    read.sort(null);
    assertThat(read)
        .as("partitions 1 and 3 replaced by generation 2, the others untouched")
        .isEqualTo(expected);
    if (tap.equals("lake")) {
      Map<String, Long> delta = MinioFixture.delta(before, minio.requestCounts());
      assertThat(delta.getOrDefault("CopyObject", 0L))
          .as("copy requests of dynamic overwrite on S3")
          .isZero();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void readsThroughLocalHdfsAndS3TapsEqualTheBackendWithTheCacheOnAndOff(String format)
      throws Exception {
    String[] direct = {
      "file://" + localData() + "/tables/" + format, // Hadoop's Path takes % literally
      hdfs.hdfs + "/arch/tables/" + format,
      "s3a://" + bucket + "/lake/tables/" + format
    };
    submit()
        .run(
            "tables-" + format,
            "write",
            "--format",
            format,
            "--dest",
            String.join(",", direct),
            "--rows",
            Long.toString(ROWS),
            "--slices",
            "2");
    String[][] taps = {{"loc", "locnc"}, {"arch", "archnc"}, {"lake", "lakenc"}};
    List<String> tapPaths = new ArrayList<>();
    List<String> directPaths = new ArrayList<>();
    for (int i = 0; i < taps.length; i++) {
      for (String tap : taps[i]) {
        tapPaths.add("dtap://" + tap + "/tables/" + format);
        directPaths.add(direct[i]);
      }
    }
    SparkSubmit.SparkRun run =
        submit()
            .hadoop("parquet.hadoop.vectored.io.enabled", "true")
            .run(
                "compare-" + format,
                "compare",
                "--format",
                format,
                "--tap",
                String.join(",", tapPaths),
                "--direct",
                String.join(",", directPaths));
    for (String tap : tapPaths) {
      List<String> expected = run.lines("DIRECT " + tap);
      assertThat(expected).as("the aggregate on the backend").hasSize(PARTITIONS);
      assertThat(run.lines("TAP " + tap)).as("the aggregate through " + tap).isEqualTo(expected);
      assertThat(run.lines("TAP2 " + tap))
          .as("the aggregate through " + tap + ", again")
          .isEqualTo(expected);
    }
    for (String[] pair : taps) {
      String cached = "dtap://" + pair[0] + "/tables/" + format;
      String uncached = "dtap://" + pair[1] + "/tables/" + format;
      assertThat(counter(run, cached, "dtap_cache_hits"))
          .as(cached + ": the second aggregate hits the cache")
          .isPositive();
      assertThat(counter(run, uncached, "dtap_cache_misses")).as(uncached + ": no cache").isZero();
    }
    assertThat(counter(run, "dtap://lakenc/tables/" + format, "stream_read_vectored_operations"))
        .as(format + "'s vectored reads reach S3A's stream through an uncached tap")
        .isPositive();
  }

  /**
   * @return a counter of a tap's filesystem the compare job printed, 0 when it has none
   */
  private static long counter(SparkSubmit.SparkRun run, String path, String name) {
    for (String line : run.lines("COUNTER " + path)) {
      if (line.startsWith(name + "=")) {
        return Long.parseLong(line.substring(name.length() + 1));
      }
    }
    return 0;
  }

  /** Polls until no multipart upload is pending under a prefix: attempts that lost abort theirs. */
  private void awaitNoUploadsUnder(String prefix) throws Exception {
    Await.until(
        "no multipart upload pending under " + prefix + " after the job",
        Duration.ofMinutes(2),
        () -> minio.pendingUploads(bucket, prefix).isEmpty());
  }

  private List<String> keys(String prefix) {
    List<String> keys = new ArrayList<>();
    for (S3Object o :
        minio.client().listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents()) {
      keys.add(o.key());
    }
    return keys;
  }

  private JsonNode successOf(String key) throws IOException {
    byte[] bytes = minio.client().getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
    String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    assertThat(text)
        .as("_SUCCESS names no backend")
        .doesNotContain("s3a://")
        .doesNotContain(bucket);
    return new ObjectMapper().readTree(bytes);
  }

  private static List<String> concat(List<String> a, String b) {
    List<String> out = new ArrayList<>(a);
    out.add(b);
    return out;
  }
}
