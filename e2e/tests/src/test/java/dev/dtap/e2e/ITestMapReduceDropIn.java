package dev.dtap.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.it.fixtures.FaultPlan;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.ReliabilityLog;
import dev.dtap.it.fixtures.ShapingProxy;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MapReduce through the drop-in jar, as a user runs it: a YARN cluster and client processes whose
 * class path is Hadoop's jars plus the dtap-hadoop jar only, every dtap setting in core-site.xml,
 * Hadoop's own unmodified jobs and tools (FsShell, TeraGen, TeraSort, TeraValidate,
 * MultiFileWordCount, TestDFSIO) on an S3 tap (MinIO; magic committer, read cache and locality on,
 * S3A's default credential chain) and an HDFS tap. TeraValidate of a sort through a tap must report
 * the checksum of every row TeraGen made, as Hadoop's own generator (GenSort) computes it; under
 * faults, a committed sort must equal the same job's on hdfs:// without dtap byte for byte.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(ReliabilityLog.Failures.class)
class ITestMapReduceDropIn {
  /** TeraGen rows: 100 bytes each; raise with -Ddtap.e2e.rows. */
  private static final long ROWS = Long.getLong("dtap.e2e.rows", 100_000L);

  private MapReduceCluster cluster;

  /** The checksum of TeraGen's rows, once computed. */
  private String generated;

  /** Whether the sort on hdfs:// without dtap has run. */
  private boolean referenceSorted;

  /** Whether the fault cases' TeraGen input exists. */
  private boolean faultInput;

  private ReliabilityLog faultRows;

  @BeforeAll
  void start() throws IOException {
    cluster = MapReduceCluster.start("mr");
  }

  @AfterAll
  void stop() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  private ChildJvm.Result run(String name, String main, String... args) throws IOException {
    ChildJvm.Result r = cluster.client(name).run(main, 15, args);
    assertThat(r.exit)
        .as(name + " " + String.join(" ", args) + " exit status; its log:\n" + r.tail())
        .isZero();
    return r;
  }

  private ChildJvm.Result shell(String... args) throws IOException {
    return run("fsshell", "org.apache.hadoop.fs.FsShell", args);
  }

  private ChildJvm.Result example(String... args) throws IOException {
    return run(args[0], "org.apache.hadoop.examples.ExampleDriver", args);
  }

  @Test
  @Tag("smoke")
  void fsShellOnBothTaps() throws Exception {
    File local = new File(cluster.dir, "hello.txt");
    Files.write(local.toPath(), "hello from the shell\n".getBytes(StandardCharsets.UTF_8));
    for (String tap : new String[] {"lake", "arch"}) {
      String dir = "dtap://" + tap + "/shell/sub dir";
      shell("-mkdir", "-p", dir);
      shell("-put", local.getAbsolutePath(), dir + "/");
      assertThat(shell("-ls", dir).stdout)
          .contains(dir + "/hello.txt")
          .doesNotContain("s3a://")
          .doesNotContain("hdfs://");
      assertThat(shell("-cat", dir + "/hello.txt").stdout).isEqualTo("hello from the shell\n");
      shell("-rm", "-r", "dtap://" + tap + "/shell");
      ChildJvm.Result gone =
          cluster.client("fsshell").run("org.apache.hadoop.fs.FsShell", 5, "-ls", dir);
      assertThat(gone.exit).as("ls of a removed directory").isEqualTo(1);
    }
  }

  /**
   * TeraSort through an S3 tap while a proxy resets every 7th connection part-way through its
   * answer (the job makes few, large requests), for the whole job (tasks, the AM's job commit),
   * with each committer: the job either commits the whole sort, byte for byte the sort on hdfs://,
   * or fails leaving no output file; either way no multipart upload is left pending.
   */
  @ParameterizedTest
  @ValueSource(strings = {"magic", "staging"})
  void teraSortUnderConnectionResetsCommitsWholeOrNothing(String committer) throws Exception {
    ReliabilityLog.Case rc =
        faultLog()
            .begin(
                "MapReduce TeraSort of "
                    + ROWS
                    + " rows through an S3 tap ("
                    + committer
                    + " committer, 2 reduces)",
                "connection reset part-way through every 7th answer of the job's store traffic");
    referenceSort();
    String base = "dtap://lake/tera-faults";
    String out = base + "/out-" + committer;
    synchronized (this) {
      if (!faultInput) {
        example("teragen", "-Dmapreduce.job.maps=2", Long.toString(ROWS), base + "/in");
        faultInput = true;
      }
    }
    MinioFixture minio = MinioFixture.get();
    String outcome;
    long faults;
    long requests;
    try (ShapingProxy proxy = ShapingProxy.forFaults(minio.endpoint())) {
      proxy.faults().failEvery(FaultPlan.Fault.RESET, 7);
      String tap = "-Dfs.dtap.tap.lake.conf.fs.s3a.";
      ChildJvm.Result sort =
          cluster
              .client("terasort-faults-" + committer)
              .run(
                  "org.apache.hadoop.examples.ExampleDriver",
                  15,
                  "terasort",
                  "-Dmapreduce.job.reduces=2",
                  "-Dfs.dtap.committer.name=" + committer,
                  tap + "endpoint=" + proxy.endpoint(),
                  tap + "retry.interval=10ms",
                  tap + "retry.throttle.interval=10ms",
                  base + "/in",
                  out);
      faults = proxy.faults().injectedTotal();
      requests = proxy.requests();
      proxy.faults().heal();
      try (FileSystem fs = FileSystem.newInstance(new Path(base).toUri(), cluster.conf());
          FileSystem hdfs =
              FileSystem.newInstance(new Path(cluster.hdfs).toUri(), cluster.conf())) {
        Map<String, byte[]> sorted = partFiles(fs, new Path(out));
        if (sort.exit == 0) {
          Map<String, byte[]> expected = partFiles(hdfs, new Path(cluster.hdfs + "/reference/out"));
          assertThat(sorted.keySet()).as("the sort's files").isEqualTo(expected.keySet());
          for (Map.Entry<String, byte[]> e : expected.entrySet()) {
            assertThat(sorted.get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
          }
          rc.checked("every part file compared byte for byte with the same sort on hdfs://");
          outcome = "committed: the whole sort, byte for byte the job on hdfs://";
        } else {
          assertThat(sorted).as("no output file after a failed job").isEmpty();
          assertThat(fs.exists(new Path(out, "_SUCCESS"))).as("no _SUCCESS").isFalse();
          rc.checked("the output directory listed: no part file, no _SUCCESS");
          outcome = "the job failed after its task retries; no output file, no _SUCCESS";
        }
      }
    }
    assertThat(minio.pendingUploads(cluster.bucket, "lake/tera-faults/"))
        .as("uploads neither completed nor aborted")
        .isEmpty();
    rc.checked("MinIO's pending uploads under the job's prefix listed: 0")
        .held(outcome + " (" + faults + " faults in " + requests + " requests)", "0");
  }

  /** The fault cases' log, opened (emptied) by the first case that runs, not by the class. */
  private synchronized ReliabilityLog faultLog() {
    if (faultRows == null) {
      faultRows = ReliabilityLog.open("engines-mapreduce");
    }
    return faultRows;
  }

  /** The part files of a job's output, by name. */
  private static Map<String, byte[]> partFiles(FileSystem fs, Path dir) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    if (!fs.exists(dir)) {
      return files;
    }
    for (FileStatus st : fs.listStatus(dir)) {
      if (st.getPath().getName().startsWith("part-")) {
        try (FSDataInputStream in = fs.open(st.getPath())) {
          byte[] data = new byte[(int) st.getLen()];
          in.readFully(0, data);
          files.put(st.getPath().getName(), data);
        }
      }
    }
    return files;
  }

  /**
   * The checksum TeraValidate reports for a complete sort of TeraGen's {@link #ROWS} rows: the sum
   * of the rows' CRC32s, which Hadoop's GenSort computes from the same generator TeraGen runs,
   * without a job.
   */
  private synchronized String generatedChecksum() throws IOException {
    if (generated == null) {
      File rows = new File(cluster.dir, "gensort.bin");
      ChildJvm.Result r =
          run(
              "gensort",
              "org.apache.hadoop.examples.terasort.GenSort",
              "-c",
              Long.toString(ROWS),
              rows.getAbsolutePath());
      Files.delete(rows.toPath());
      generated = r.stdout.trim();
      assertThat(generated).as("GenSort's checksum; its log:\n" + r.tail()).matches("[0-9a-f]+");
    }
    return generated;
  }

  /**
   * TeraGen and TeraSort on hdfs:// without dtap, run once for the tests that compare a sort's
   * files byte for byte.
   */
  private synchronized void referenceSort() throws IOException {
    if (!referenceSorted) {
      String base = cluster.hdfs + "/reference";
      example("teragen", "-Dmapreduce.job.maps=2", Long.toString(ROWS), base + "/in");
      example("terasort", "-Dmapreduce.job.reduces=2", base + "/in", base + "/out");
      referenceSorted = true;
    }
  }

  @Test
  @Tag("smoke")
  void teraSortThroughAnS3TapValidatesEveryGeneratedRow() throws Exception {
    String expected = generatedChecksum();
    Map<String, Long> before = MinioFixture.get().requestCounts();
    TeraRun onS3 = teraSort("dtap://lake/tera");
    Map<String, Long> delta = MinioFixture.delta(before, MinioFixture.get().requestCounts());
    assertThat(onS3.checksum).as("TeraValidate's checksum through the S3 tap").isEqualTo(expected);
    assertThat(delta.getOrDefault("CopyObject", 0L))
        .as("copy requests: the magic committer renames nothing")
        .isZero();
    assertThat(delta.getOrDefault("CompleteMultipartUpload", 0L))
        .as("the committer completed uploads")
        .isPositive();
    // every map attempt the scheduler placed was data-local: none rack-local or off-rack; a
    // speculative attempt killed before it started counts as placed but not as launched
    String locality =
        "locality: the tap names the NodeManagers as hosts, so every map of the sort is"
            + " data-local; counters "
            + onS3.sortCounters;
    assertThat(onS3.sortCounters.getOrDefault("Rack-local map tasks", 0L)).as(locality).isZero();
    assertThat(onS3.sortCounters.getOrDefault("Other local map tasks", 0L)).as(locality).isZero();
    assertThat(onS3.sortCounters.getOrDefault("Data-local map tasks", 0L))
        .as(locality)
        .isGreaterThanOrEqualTo(onS3.sortCounters.get("Launched map tasks"));
    try (FileSystem fs = FileSystem.newInstance(new Path("dtap://lake/").toUri(), cluster.conf())) {
      String success = read(fs, new Path("dtap://lake/tera/out/_SUCCESS"));
      assertThat(success)
          .as("_SUCCESS is the dtap magic committer's, in S3A's SuccessData format")
          .contains("\"committer\" : \"dtap-magic\"")
          .contains("org.apache.hadoop.fs.s3a.commit.files.SuccessData/1")
          .doesNotContain("s3a://")
          .doesNotContain(cluster.bucket);
    }
  }

  @Test
  void teraSortThroughAnHdfsTapValidatesEveryGeneratedRow() throws Exception {
    assertThat(teraSort("dtap://arch/tera").checksum)
        .as("TeraValidate's checksum through the HDFS tap")
        .isEqualTo(generatedChecksum());
  }

  /**
   * What a TeraGen, TeraSort, TeraValidate run left: the validated checksum, the sort's counters.
   */
  private static final class TeraRun {
    final String checksum;
    final Map<String, Long> sortCounters;

    TeraRun(String checksum, Map<String, Long> sortCounters) {
      this.checksum = checksum;
      this.sortCounters = sortCounters;
    }
  }

  /** TeraGen, TeraSort, TeraValidate under a base directory. */
  private TeraRun teraSort(String base) throws IOException {
    example("teragen", "-Dmapreduce.job.maps=2", Long.toString(ROWS), base + "/in");
    ChildJvm.Result sort =
        example("terasort", "-Dmapreduce.job.reduces=2", base + "/in", base + "/out");
    example("teravalidate", base + "/out", base + "/report");
    Configuration conf = cluster.conf();
    try (FileSystem fs = FileSystem.newInstance(new Path(base).toUri(), conf)) {
      TeraReport report = TeraReport.read(fs, new Path(base + "/report"));
      assertThat(report.text)
          .as(base + ": TeraValidate found no errors")
          .doesNotContain("misorder")
          .doesNotContain("error");
      assertThat(report.checksum())
          .as("the checksum in the TeraValidate report of " + base + ":\n" + report.text)
          .isNotNull();
      return new TeraRun(report.checksum(), JobCounters.parse(sort.log));
    }
  }

  @Test
  void multiFileWordCountOverTwoThousandSmallFiles() throws Exception {
    File in = new File(cluster.dir, "wc-in");
    Files.createDirectories(in.toPath());
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < 2000; i++) {
      String text = "file" + (i % 7) + " word" + (i % 13) + " common\n";
      Files.write(
          new File(in, String.format("f-%04d.txt", i)).toPath(),
          text.getBytes(StandardCharsets.UTF_8));
      for (String w : text.trim().split(" ")) {
        expected.merge(w, 1L, Long::sum);
      }
    }
    shell("-mkdir", "-p", "dtap://lake/wc");
    // as one loads many small files into a store: in parallel, without FsShell's temporary copy
    // (on S3 a rename is a copy and a delete per file)
    shell("-put", "-d", "-t", "4", in.getAbsolutePath(), "dtap://lake/wc/in");
    example("multifilewc", "dtap://lake/wc/in", "dtap://lake/wc/out");
    Map<String, Long> counted = new TreeMap<>();
    try (FileSystem fs = FileSystem.newInstance(new Path("dtap://lake/").toUri(), cluster.conf())) {
      for (FileStatus s :
          fs.listStatus(new Path("dtap://lake/wc/out"), p -> p.getName().startsWith("part-"))) {
        for (String line : read(fs, s.getPath()).split("\n")) {
          if (!line.isEmpty()) {
            String[] kv = line.split("\t");
            counted.merge(kv[0], Long.parseLong(kv[1]), Long::sum);
          }
        }
      }
    }
    assertThat(counted).isEqualTo(expected);
  }

  @Test
  void testDfsIoWritesThenReadsThroughTheS3Tap() throws Exception {
    File result = new File(cluster.dir, "dfsio.txt");
    String[] common = {"-nrFiles", "2", "-fileSize", "4MB", "-resFile", result.getAbsolutePath()};
    // TestDFSIO works on the default filesystem, as users run it against a store: the tap is it
    String[] onTap = {"-Dfs.defaultFS=dtap://lake/", "-Dtest.build.data=dtap://lake/dfsio"};
    run(
        "dfsio",
        "org.apache.hadoop.fs.TestDFSIO",
        concat(concat(onTap, new String[] {"-write"}), common));
    run(
        "dfsio",
        "org.apache.hadoop.fs.TestDFSIO",
        concat(concat(onTap, new String[] {"-read"}), common));
    String report = new String(Files.readAllBytes(result.toPath()), StandardCharsets.UTF_8);
    assertThat(report)
        .contains("TestDFSIO ----- : write")
        .contains("TestDFSIO ----- : read")
        .contains("Total MBytes processed: 8");
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static String read(FileSystem fs, Path p) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
