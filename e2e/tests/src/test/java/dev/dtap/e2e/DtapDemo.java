package dev.dtap.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.ShapingProxy;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./dtap demo}: TeraGen, TeraSort and TeraValidate on a local MinIO through a dtap tap
 * ({@code demo}: read cache, locality and the magic committer), the same job on {@code s3a://} with
 * S3A's magic committer, then the dtap sort again over the same input, and last the same sort from
 * the local disk (the floor no cache can beat); prints a report with what each run measured, and
 * writes it as JSON with {@code --json FILE}.
 *
 * <p>Every number comes from this run: times from the job processes, bytes and requests from the
 * store's own counters, the rest from the jobs' counters and logs.
 */
public final class DtapDemo {
  private static final Set<String> MUTATING =
      Set.of(
          "PutObject",
          "NewMultipartUpload",
          "PutObjectPart",
          "CompleteMultipartUpload",
          "AbortMultipartUpload",
          "CopyObject",
          "DeleteObject",
          "DeleteMultipleObjects");
  private static final Pattern SPLITS = Pattern.compile("Computing input splits took (\\d+)ms");
  private static final String MAP_MILLIS = "Total time spent by all map tasks (ms)";
  private static final Pattern LOCATION_CALLS =
      Pattern.compile("dtap_backend_location_calls=(\\d+)");

  private final PrintStream out;
  private final MapReduceCluster cluster;
  private final long rows;
  private final int stages;
  private int stage;

  private DtapDemo(PrintStream out, MapReduceCluster cluster, long rows, int stages) {
    this.out = out;
    this.cluster = cluster;
    this.rows = rows;
    this.stages = stages;
  }

  /** What one run of a stage measured. */
  static final class Run {
    double seconds;
    Map<String, Long> counters = new LinkedHashMap<>();
    Map<String, Long> requests = new LinkedHashMap<>();
    long sentBytes;
    String stdout = "";
    String log = "";
  }

  /**
   * Runs the demo.
   *
   * @param args {@code [--size ROWS] [--json FILE]}; ROWS takes k and m suffixes
   * @throws Exception if a job fails
   */
  public static void main(String[] args) throws Exception {
    long rows = 200_000;
    File json = null;
    String remote = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--size") && i + 1 < args.length) {
        rows = parseRows(args[++i]);
      } else if (args[i].equals("--json") && i + 1 < args.length) {
        json = new File(args[++i]);
      } else if (args[i].equals("--remote")) {
        remote =
            i + 1 < args.length && !args[i + 1].startsWith("--") ? args[++i] : RemoteOption.DEFAULT;
      } else {
        System.err.println(
            "Usage: dtap demo [--size ROWS] [--json FILE] [--remote [LATENCYms,MBITS]]");
        System.err.println(
            "  ROWS of 100 bytes, default 200k (e.g. 500k, 2m); --remote puts the store behind a");
        System.err.println(
            "  proxy modelling a remote one: 2ms per request and 1000 Mbit/s unless given");
        System.exit(2);
      }
    }
    PrintStream out = System.out;
    out.printf(
        Locale.ROOT,
        "dtap demo: TeraGen -> TeraSort -> TeraValidate, %,d rows (%s), MapReduce on a local"
            + " YARN cluster, a local MinIO as the store%n",
        rows,
        mb(rows * 100));
    out.println("starting MinIO and the cluster...");
    MinioFixture minio = MinioFixture.get();
    ShapingProxy proxy = null;
    Map<String, Object> shape = null;
    if (remote != null) {
      RemoteOption option;
      try {
        option = RemoteOption.parse(remote);
      } catch (IllegalArgumentException e) {
        System.err.println("dtap demo: " + e.getMessage());
        System.exit(2);
        return;
      }
      shape = option.describe();
      proxy = option.start(minio.endpoint());
      out.println("the store is behind a proxy modelling a remote one: " + option);
    }
    int code;
    try (MapReduceCluster cluster =
        MapReduceCluster.start("demo", "demo", true, proxy == null ? null : proxy.endpoint())) {
      Map<String, Object> report = new DtapDemo(out, cluster, rows, 10).run();
      if (proxy != null) {
        report.put("remote", shape);
      }
      if (json != null) {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json, report);
        out.println("report written to " + json.getAbsolutePath());
      }
      code = Boolean.TRUE.equals(((Map<?, ?>) report.get("validated")).get("all")) ? 0 : 1;
    } finally {
      if (proxy != null) {
        proxy.close();
      }
    }
    System.exit(code);
  }

  static long parseRows(String s) {
    String t = s.trim().toLowerCase(Locale.ROOT);
    long unit = t.endsWith("k") ? 1_000 : t.endsWith("m") ? 1_000_000 : 1;
    long n = Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1)) * unit;
    if (n <= 0) {
      throw new IllegalArgumentException("--size must be a positive number of rows: " + s);
    }
    return n;
  }

  private Map<String, Object> run() throws IOException {
    String dtap = "dtap://demo/tera";
    String s3a = "s3a://" + cluster.bucket + "/s3a";
    String[] s3aCommitter = {
      "-Dmapreduce.outputcommitter.factory.scheme.s3a="
          + "org.apache.hadoop.fs.s3a.commit.S3ACommitterFactory",
      "-Dfs.s3a.committer.name=magic"
    };
    Run genD =
        job(
            "dtap",
            "teragen",
            new String[0],
            "-Dmapreduce.job.maps=2",
            Long.toString(rows),
            dtap + "/in");
    Run sortD =
        job(
            "dtap",
            "terasort",
            new String[0],
            "-Dmapreduce.job.reduces=2",
            dtap + "/in",
            dtap + "/out");
    Run valD = job("dtap", "teravalidate", new String[0], dtap + "/out", dtap + "/report");
    Run genS =
        job(
            "s3a",
            "teragen",
            s3aCommitter,
            "-Dmapreduce.job.maps=2",
            Long.toString(rows),
            s3a + "/in");
    Run sortS =
        job(
            "s3a",
            "terasort",
            s3aCommitter,
            "-Dmapreduce.job.reduces=2",
            s3a + "/in",
            s3a + "/out");
    Run valS = job("s3a", "teravalidate", s3aCommitter, s3a + "/out", s3a + "/report");
    Run sortD2 =
        job(
            "dtap again",
            "terasort",
            new String[0],
            "-Dmapreduce.job.reduces=2",
            dtap + "/in",
            dtap + "/out2");
    Run valD2 = job("dtap again", "teravalidate", new String[0], dtap + "/out2", dtap + "/report2");
    // the floor: the same rows (TeraGen's are deterministic) sorted from the local disk, which
    // bounds what any cache can make of the sort's map phase on this machine
    String local =
        new File(cluster.dir, "local-floor")
                .getAbsoluteFile()
                .toURI()
                .toString()
                .replaceAll("/$", "")
            + "/";
    job(
        "local disk",
        "teragen",
        new String[0],
        "-Dmapreduce.job.maps=2",
        Long.toString(rows),
        local + "in");
    Run sortL =
        job(
            "local disk",
            "terasort",
            new String[] {"-Dfs.local.block.size=" + (1L << 30)}, // one split per file, as dtap
            "-Dmapreduce.job.reduces=2",
            local + "in",
            local + "out");

    String sumD = checksum(dtap + "/report");
    String sumS = checksum(s3a + "/report");
    String sumD2 = checksum(dtap + "/report2");
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("rows", rows);
    report.put("input_bytes", rows * 100);
    Map<String, Object> st = new LinkedHashMap<>();
    st.put("teragen", times(genD, genS, null));
    st.put("terasort", times(sortD, sortS, sortD2));
    st.put("teravalidate", times(valD, valS, valD2));
    report.put("stages", st);
    Map<String, Object> validated = new LinkedHashMap<>();
    validated.put("dtap", sumD != null);
    validated.put("s3a", sumS != null);
    validated.put("dtap_again", sumD2 != null);
    validated.put("checksums_equal", sumD != null && sumD.equals(sumS) && sumD.equals(sumD2));
    validated.put(
        "all",
        sumD != null && sumS != null && sumD2 != null && sumD.equals(sumS) && sumD.equals(sumD2));
    report.put("validated", validated);
    report.put(
        "backend_bytes",
        Map.of(
            "first_read",
            sortD.sentBytes,
            "second_read",
            sortD2.sentBytes,
            "s3a_read",
            sortS.sentBytes));
    report.put(
        "dtap_bytes_read",
        Map.of(
            "first_read",
            counter(sortD, "DTAP: Number of bytes read"),
            "second_read",
            counter(sortD2, "DTAP: Number of bytes read")));
    report.put(
        "cache_served_bytes",
        Map.of("first_read", cacheServed(sortD), "second_read", cacheServed(sortD2)));
    report.put("terasort_map_tasks", mapTasks(sortD, sortS, sortD2, sortL));
    Map<String, Object> splits = new LinkedHashMap<>();
    splits.put("dtap", find(SPLITS, sortD.stdout));
    splits.put("s3a", find(SPLITS, sortS.stdout));
    report.put("split_planning_ms", splits);
    Long calls = find(LOCATION_CALLS, sortD.log);
    if (calls == null && sortD.log.contains("IOStatistics: counters=")) {
      calls = 0L; // the statistics were logged, and list only the counters that were used
    }
    report.put("location_calls", calls);
    report.put(
        "data_local_maps",
        Map.of(
            "dtap",
            counter(sortD, "Data-local map tasks"),
            "s3a",
            counter(sortS, "Data-local map tasks"),
            "launched_maps",
            counter(sortD, "Launched map tasks")));
    report.put(
        "requests_per_file",
        Map.of(
            "dtap",
            perFile(sortD, outputFiles(dtap + "/out")),
            "s3a",
            perFile(sortS, outputFiles(s3a + "/out"))));
    report.put(
        "copy_requests",
        Map.of(
            "dtap",
            sortD.requests.getOrDefault("CopyObject", 0L),
            "s3a",
            sortS.requests.getOrDefault("CopyObject", 0L)));
    print(report, sumD, sumS);
    return report;
  }

  private Run job(String where, String name, String[] extra, String... args) throws IOException {
    stage++;
    out.printf(Locale.ROOT, "[%d/%d] %-10s %-12s ", stage, stages, where, name);
    out.flush();
    List<String> all = new ArrayList<>();
    all.add(name);
    for (String e : extra) {
      all.add(e);
    }
    if (name.equals("terasort") && where.startsWith("dtap")) {
      all.add(
          "-Dfs.iostatistics.logging.level=info"); // the client logs the tap's statistics at exit
    }
    for (String a : args) {
      all.add(a);
    }
    Map<String, Long> before = MinioFixture.get().requestCounts();
    long sentBefore = MinioFixture.get().trafficSentBytes();
    long start = System.nanoTime();
    ChildJvm.Result r =
        cluster
            .client(name)
            .run("org.apache.hadoop.examples.ExampleDriver", 30, all.toArray(new String[0]));
    Run run = new Run();
    run.seconds = (System.nanoTime() - start) / 1e9;
    run.sentBytes = MinioFixture.get().trafficSentBytes() - sentBefore;
    run.requests = MinioFixture.delta(before, MinioFixture.get().requestCounts());
    if (r.exit != 0) {
      out.println("FAILED");
      throw new IOException(
          where
              + " "
              + name
              + " failed (exit "
              + r.exit
              + "); its log: "
              + r.log
              + "\n"
              + r.tail());
    }
    run.counters = JobCounters.parse(r.log);
    run.stdout = r.stdout;
    run.log =
        new String(
            java.nio.file.Files.readAllBytes(r.log.toPath()),
            java.nio.charset.StandardCharsets.UTF_8);
    out.printf(Locale.ROOT, "%6.1f s%n", run.seconds);
    return run;
  }

  /**
   * @return TeraValidate's checksum, or null when the report has errors or none
   */
  private String checksum(String reportDir) throws IOException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(reportDir);
    try (org.apache.hadoop.fs.FileSystem fs =
        org.apache.hadoop.fs.FileSystem.newInstance(dir.toUri(), cluster.conf())) {
      TeraReport report = TeraReport.read(fs, dir);
      return report.hasErrors() ? null : report.checksum();
    }
  }

  /**
   * @return the data files a sort wrote (its part files)
   */
  private long outputFiles(String dir) throws IOException {
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(dir);
    try (org.apache.hadoop.fs.FileSystem fs =
        org.apache.hadoop.fs.FileSystem.newInstance(out.toUri(), cluster.conf())) {
      return fs.listStatus(out, p -> p.getName().startsWith("part-")).length;
    }
  }

  private static Map<String, Object> times(Run dtap, Run s3a, Run again) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("dtap_seconds", round(dtap.seconds));
    m.put("s3a_seconds", round(s3a.seconds));
    if (again != null) {
      m.put("dtap_again_seconds", round(again.seconds));
    }
    m.put("dtap_vs_s3a", round(s3a.seconds / dtap.seconds));
    return m;
  }

  /**
   * The sort's map phase as YARN counted it: the time of all its map task attempts, summed (a task
   * from its container's launch to its end). Summed task time, not the phase's wall time, so that
   * how the scheduler packs containers does not enter the ratio.
   */
  private static Map<String, Object> mapTasks(Run dtap, Run s3a, Run again, Run local) {
    long first = counter(dtap, MAP_MILLIS);
    long repeat = counter(again, MAP_MILLIS);
    long s3aMillis = counter(s3a, MAP_MILLIS);
    long floor = counter(local, MAP_MILLIS);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("dtap_ms", first);
    m.put("s3a_ms", s3aMillis);
    m.put("dtap_again_ms", repeat);
    m.put("repeat_speedup", repeat == 0 ? null : round((double) first / repeat));
    // no ratio to S3A: its job splits the input by S3A's block size into more, smaller maps
    m.put("s3a_maps", counter(s3a, "Launched map tasks"));
    m.put("local_disk_ms", floor);
    m.put("maps", counter(dtap, "Launched map tasks"));
    m.put("local_disk_maps", counter(local, "Launched map tasks"));
    // the most a repeat could gain: the first run's map phase over the local disk's
    m.put("floor_speedup", floor == 0 ? null : round((double) first / floor));
    return m;
  }

  private static long counter(Run r, String name) {
    return r.counters.getOrDefault(name, 0L);
  }

  /**
   * Bytes the sort's tasks read through dtap that S3A did not read for them: served by the cache.
   */
  private static long cacheServed(Run r) {
    return Math.max(
        0, counter(r, "DTAP: Number of bytes read") - counter(r, "S3A: Number of bytes read"));
  }

  private static double perFile(Run r, long files) {
    long n = 0;
    for (Map.Entry<String, Long> e : r.requests.entrySet()) {
      if (MUTATING.contains(e.getKey())) {
        n += e.getValue();
      }
    }
    return round((double) n / Math.max(1, files));
  }

  /**
   * @return the number of the last match, or null when the text has none
   */
  private static Long find(Pattern p, String text) {
    Long last = null;
    Matcher m = p.matcher(text);
    while (m.find()) {
      last = Long.parseLong(m.group(1));
    }
    return last;
  }

  private static String orNa(Object o) {
    return o == null ? "n/a" : o.toString();
  }

  private static double round(double d) {
    return Math.round(d * 100) / 100.0;
  }

  private static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
  }

  @SuppressWarnings("unchecked")
  private void print(Map<String, Object> report, String sumD, String sumS) {
    out.println();
    out.println("stage          dtap (s)   s3a (s)   dtap again (s)   s3a/dtap");
    for (String s : new String[] {"teragen", "terasort", "teravalidate"}) {
      Map<String, Object> t =
          (Map<String, Object>) ((Map<String, Object>) report.get("stages")).get(s);
      out.printf(
          Locale.ROOT,
          "%-13s %9.1f %9.1f %16s %10.2fx%n",
          s,
          t.get("dtap_seconds"),
          t.get("s3a_seconds"),
          t.containsKey("dtap_again_seconds")
              ? String.format(Locale.ROOT, "%.1f", t.get("dtap_again_seconds"))
              : "-",
          t.get("dtap_vs_s3a"));
    }
    Map<String, Object> v = (Map<String, Object>) report.get("validated");
    out.printf(
        Locale.ROOT,
        "validated: dtap %s, s3a %s, dtap again %s; checksums equal: %s (%s)%n",
        v.get("dtap"),
        v.get("s3a"),
        v.get("dtap_again"),
        v.get("checksums_equal"),
        sumD != null ? sumD : sumS);
    Map<String, Object> b = (Map<String, Object>) report.get("backend_bytes");
    Map<String, Object> d = (Map<String, Object>) report.get("dtap_bytes_read");
    Map<String, Object> c = (Map<String, Object>) report.get("cache_served_bytes");
    out.printf(
        Locale.ROOT,
        "terasort reads: first  %s through dtap, %s from the store, %s served by the cache%n",
        mb((Long) d.get("first_read")),
        mb((Long) b.get("first_read")),
        mb((Long) c.get("first_read")));
    out.printf(
        Locale.ROOT,
        "                second %s through dtap, %s from the store, %s served by the cache%n",
        mb((Long) d.get("second_read")),
        mb((Long) b.get("second_read")),
        mb((Long) c.get("second_read")));
    out.printf(
        Locale.ROOT, "                s3a    %s from the store%n", mb((Long) b.get("s3a_read")));
    Map<String, Object> mt = (Map<String, Object>) report.get("terasort_map_tasks");
    out.printf(
        Locale.ROOT,
        "terasort map tasks (summed): dtap %,d ms (%d maps; s3a %,d ms over %d), dtap again %,d"
            + " ms (%sx faster than the first); from the local disk %,d ms (%sx: the most a"
            + " cache can give here)%n",
        mt.get("dtap_ms"),
        mt.get("maps"),
        mt.get("s3a_ms"),
        mt.get("s3a_maps"),
        mt.get("dtap_again_ms"),
        orNa(mt.get("repeat_speedup")),
        mt.get("local_disk_ms"),
        orNa(mt.get("floor_speedup")));
    Map<String, Object> sp = (Map<String, Object>) report.get("split_planning_ms");
    Map<String, Object> dl = (Map<String, Object>) report.get("data_local_maps");
    out.printf(
        Locale.ROOT,
        "split planning: dtap %s ms with %s backend location calls, s3a %s ms; data-local maps:"
            + " dtap %d of %d, s3a %d%n",
        orNa(sp.get("dtap")),
        orNa(report.get("location_calls")),
        orNa(sp.get("s3a")),
        dl.get("dtap"),
        dl.get("launched_maps"),
        dl.get("s3a"));
    Map<String, Object> rq = (Map<String, Object>) report.get("requests_per_file");
    Map<String, Object> cp = (Map<String, Object>) report.get("copy_requests");
    out.printf(
        Locale.ROOT,
        "committer: write requests per output file dtap %.1f, s3a %.1f; copy requests dtap %d,"
            + " s3a %d%n",
        rq.get("dtap"),
        rq.get("s3a"),
        cp.get("dtap"),
        cp.get("s3a"));
  }
}
