package dev.dtap.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.ShapingProxy;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileUtil;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code ./dtap scan-bench}: a Spark Parquet scan (filter plus aggregate) over one table in a local
 * MinIO, each run a new {@code spark-submit} JVM as report jobs run: through S3A directly (the
 * Hadoop line's default input stream), through a dtap tap without a cache (what the tap alone
 * costs), through a cached tap with an empty cache, and through it again with the cache warm; and,
 * as the floor no cache can go below, from a copy of the table on the local disk ({@code file://},
 * read from the page cache): S3A's time over that one bounds what any cache can gain for this query
 * on this machine. Rounds alternate the cases so that the machine's drift falls on all of them; the
 * report gives each run and the medians.
 *
 * <p>Every number comes from this run: query times, and the processor and collection time spent
 * during them, from the jobs (the session's start excluded), process times from here, bytes from
 * the store's own counter.
 */
public final class ParquetScanBench {
  private static final String[] CASES = {
    "s3a", "dtap-uncached", "dtap-cold", "dtap-warm", "local-file"
  };

  private final PrintStream out;
  private final MinioFixture minio;
  private final URI endpoint;
  private final File dir;
  private final String bucket;
  private final Map<String, String> settings;
  private int runs;

  private ParquetScanBench(
      PrintStream out, MinioFixture minio, URI endpoint, File dir, Map<String, String> settings) {
    this.out = out;
    this.minio = minio;
    this.endpoint = endpoint;
    this.dir = dir;
    this.settings = settings;
    this.bucket = minio.createBucket("scan");
  }

  /** What one run measured. */
  static final class Run {
    long queryMillis;

    /** The job JVM's processor time during the query, or -1 if it did not say. */
    long queryCpuMillis;

    /** The job JVM's collection time during the query, or -1 if it did not say. */
    long queryGcMillis;

    double seconds;
    long storeBytes;
    List<String> rows;

    /** The dtap cache's counters at the query's end ({@code dtap_cache_*}); none for S3A. */
    Map<String, Long> cacheCounters;
  }

  /**
   * Runs the benchmark.
   *
   * @param args {@code [--rows ROWS] [--rounds N] [--json FILE] [--remote [LATENCYms,MBITS]]
   *     [--conf KEY=VALUE]...}; each {@code --conf} is a Hadoop setting of every scan
   * @throws Exception if a job fails
   */
  public static void main(String[] args) throws Exception {
    long rows = 20_000_000;
    int rounds = 3;
    File json = null;
    RemoteOption option = null;
    Map<String, String> settings = new LinkedHashMap<>();
    try {
      for (int i = 0; i < args.length; i++) {
        if (args[i].equals("--rows") && i + 1 < args.length) {
          rows = DtapDemo.parseRows(args[++i]);
        } else if (args[i].equals("--rounds") && i + 1 < args.length) {
          rounds = Integer.parseInt(args[++i]);
        } else if (args[i].equals("--json") && i + 1 < args.length) {
          json = new File(args[++i]);
        } else if (args[i].equals("--conf") && i + 1 < args.length && args[i + 1].contains("=")) {
          String kv = args[++i];
          settings.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        } else if (args[i].equals("--remote")) {
          option =
              RemoteOption.parse(
                  i + 1 < args.length && !args[i + 1].startsWith("--")
                      ? args[++i]
                      : RemoteOption.DEFAULT);
        } else {
          throw new IllegalArgumentException("unknown argument " + args[i]);
        }
      }
      if (rounds < 1) {
        throw new IllegalArgumentException("--rounds must be at least 1");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("dtap scan-bench: " + e.getMessage());
      System.err.println(
          "Usage: dtap scan-bench [--rows ROWS] [--rounds N] [--json FILE] [--remote"
              + " [LATENCYms,MBITS]] [--conf KEY=VALUE]...");
      System.exit(2);
    }
    PrintStream out = System.out;
    MinioFixture minio = MinioFixture.get();
    ShapingProxy proxy = option == null ? null : option.start(minio.endpoint());
    try {
      File dir = new File(System.getProperty("dtap.e2e.dir", "target/scan-bench"));
      ParquetScanBench bench =
          new ParquetScanBench(
              out, minio, proxy == null ? minio.endpoint() : proxy.endpoint(), dir, settings);
      if (option != null) {
        out.println("the store is behind a proxy modelling a remote one: " + option);
      }
      Map<String, Object> report = bench.run(rows, rounds);
      if (option != null) {
        report.put("remote", option.describe());
      }
      if (json != null) {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json, report);
        out.println("report written to " + json.getAbsolutePath());
      }
    } finally {
      if (proxy != null) {
        proxy.close();
      }
    }
    System.exit(0);
  }

  private Map<String, Object> run(long rows, int rounds) throws IOException {
    out.printf(Locale.ROOT, "writing %,d rows of Parquet to the store...%n", rows);
    submit(minio.endpoint())
        .run(
            "scan-write",
            "write",
            "--dest",
            "s3a://" + bucket + "/scan/t",
            "--rows",
            Long.toString(rows),
            "--slices",
            "2");
    long objects = 0;
    long bytes = 0;
    for (S3Object o : minio.client().listObjectsV2Paginator(b -> b.bucket(bucket)).contents()) {
      if (o.key().endsWith(".parquet")) {
        objects++;
        bytes += o.size();
      }
    }
    out.printf(
        Locale.ROOT,
        "table: %d Parquet files, %.1f MiB; Spark's S3A: %s%n",
        objects,
        bytes / 1048576.0,
        sparkS3a());
    File local = copyToLocalDisk();

    Map<String, List<Run>> byCase = new LinkedHashMap<>();
    for (String c : CASES) {
      byCase.put(c, new ArrayList<>());
    }
    // emptied before each round; a --conf of the cache's directory moves it (one directory)
    File cache =
        new File(
            settings.getOrDefault(
                "fs.dtap.cache.dirs", new File(dir, "scan-cache").getAbsolutePath()));
    List<String> expected = null;
    for (int round = 1; round <= rounds; round++) {
      FileUtil.fullyDelete(cache);
      for (String c : CASES) {
        String path =
            c.equals("s3a")
                ? "s3a://" + bucket + "/scan/t"
                : c.equals("local-file")
                    ? local.toURI().toString()
                    : c.equals("dtap-uncached") ? "dtap://scannc/t" : "dtap://scan/t";
        Run r = scan(c, path, cache);
        if (expected == null) {
          expected = r.rows;
        } else if (!expected.equals(r.rows)) {
          throw new IOException(c + " returned other rows: " + r.rows + " against " + expected);
        }
        byCase.get(c).add(r);
        out.printf(
            Locale.ROOT,
            "round %d  %-12s query %7.2f s  (processor %6.2f s, GC %5.2f s)  process %6.1f s"
                + "  %8.1f MiB from the store%s%n",
            round,
            c,
            r.queryMillis / 1000.0,
            r.queryCpuMillis / 1000.0,
            r.queryGcMillis / 1000.0,
            r.seconds,
            r.storeBytes / 1048576.0,
            dropped(r));
      }
    }
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("rows", rows);
    report.put("parquet_files", objects);
    report.put("parquet_bytes", bytes);
    report.put("spark_s3a", sparkS3a());
    report.put("rounds", rounds);
    report.put("settings", settings);
    Map<String, Object> cases = new LinkedHashMap<>();
    Map<String, Double> medianQuery = new LinkedHashMap<>();
    for (Map.Entry<String, List<Run>> e : byCase.entrySet()) {
      Map<String, Object> m = new LinkedHashMap<>();
      List<Long> q = new ArrayList<>();
      List<Long> cpu = new ArrayList<>();
      List<Long> gc = new ArrayList<>();
      List<Long> b = new ArrayList<>();
      List<Double> p = new ArrayList<>();
      List<Map<String, Long>> counters = new ArrayList<>();
      for (Run r : e.getValue()) {
        q.add(r.queryMillis);
        cpu.add(r.queryCpuMillis);
        gc.add(r.queryGcMillis);
        b.add(r.storeBytes);
        p.add(r.seconds);
        counters.add(r.cacheCounters);
      }
      m.put("query_ms", q);
      m.put("query_cpu_ms", cpu);
      m.put("query_gc_ms", gc);
      m.put("process_s", p);
      m.put("store_bytes", b);
      medianQuery.put(e.getKey(), median(q));
      m.put("median_query_ms", medianQuery.get(e.getKey()));
      m.put("median_query_cpu_ms", median(cpu));
      m.put("median_query_gc_ms", median(gc));
      m.put("median_store_bytes", median(b));
      if (!counters.get(0).isEmpty()) {
        m.put("cache_counters", counters);
      }
      cases.put(e.getKey(), m);
    }
    report.put("cases", cases);
    double s3a = medianQuery.get("s3a");
    double uncached = medianQuery.get("dtap-uncached");
    double cold = medianQuery.get("dtap-cold");
    double warm = medianQuery.get("dtap-warm");
    double floor = medianQuery.get("local-file");
    Map<String, Object> speed = new LinkedHashMap<>();
    speed.put("dtap_uncached_vs_s3a", round(s3a / uncached));
    speed.put("dtap_cold_vs_s3a", round(s3a / cold));
    speed.put("dtap_warm_vs_s3a", round(s3a / warm));
    speed.put("local_file_vs_s3a", round(s3a / floor));
    report.put("speed", speed);
    out.printf(
        Locale.ROOT,
        "median query: s3a %.2f s, dtap uncached %.2f s (%.2fx s3a), dtap cold %.2f s (%.2fx s3a),"
            + " dtap warm %.2f s (%.2fx s3a); from the local disk %.2f s (%.2fx s3a, the most a"
            + " cache can give here)%n",
        s3a / 1000,
        uncached / 1000,
        s3a / uncached,
        cold / 1000,
        s3a / cold,
        warm / 1000,
        s3a / warm,
        floor / 1000,
        s3a / floor);
    return report;
  }

  /**
   * Copies the table's Parquet files from the store to the local disk, keeping their partition
   * directories, for the floor case.
   *
   * @return the table's local directory
   */
  private File copyToLocalDisk() throws IOException {
    File table = new File(dir, "scan-local/t");
    FileUtil.fullyDelete(table.getParentFile());
    String prefix = "scan/t/";
    for (S3Object o :
        minio.client().listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents()) {
      String relative = o.key().substring(prefix.length());
      if (!o.key().endsWith(".parquet") || relative.matches("(.*/)?[_.].*")) {
        continue; // what Spark's listing skips too: _temporary, _SUCCESS, hidden files
      }
      File target = new File(table, relative);
      if (!target.getParentFile().isDirectory() && !target.getParentFile().mkdirs()) {
        throw new IOException("cannot create " + target.getParentFile());
      }
      minio.client().getObject(b -> b.bucket(bucket).key(o.key()), target.toPath());
    }
    return table;
  }

  /** The pages the cache could not keep in a run, when there were any. */
  private static String dropped(Run r) {
    long n = r.cacheCounters.getOrDefault("dtap_cache_writes_dropped", 0L);
    return n == 0 ? "" : String.format(Locale.ROOT, "  (%d page writes dropped)", n);
  }

  private Run scan(String label, String path, File cache) throws IOException {
    SparkSubmit s = submit(endpoint);
    s.hadoop("fs.dtap.cache.dirs", cache.getAbsolutePath());
    settings.forEach(s::hadoop);
    long before = minio.trafficSentBytes();
    long start = System.nanoTime();
    SparkSubmit.SparkRun r = s.run("scan-" + label + "-" + (++runs), "scan", "--path", path);
    Run run = new Run();
    run.seconds = Math.round((System.nanoTime() - start) / 1e8) / 10.0;
    run.storeBytes = minio.trafficSentBytes() - before;
    run.queryMillis = Long.parseLong(r.lines("SCAN_MS").get(0));
    List<String> cpu = r.lines("SCAN_CPU_MS");
    run.queryCpuMillis = cpu.isEmpty() ? -1 : Long.parseLong(cpu.get(0));
    List<String> gc = r.lines("SCAN_GC_MS");
    run.queryGcMillis = gc.isEmpty() ? -1 : Long.parseLong(gc.get(0));
    run.rows = r.lines("ROW");
    run.cacheCounters = new TreeMap<>();
    for (String c : r.lines("COUNTER")) {
      int eq = c.indexOf('=');
      if (eq > 0 && c.substring(eq + 1).matches("-?[0-9]{1,18}")) {
        run.cacheCounters.put(c.substring(0, eq), Long.parseLong(c.substring(eq + 1)));
      }
    }
    return run;
  }

  /**
   * A spark-submit reaching the store at an endpoint, directly and through the tap {@code scan}.
   */
  private SparkSubmit submit(URI store) {
    SparkSubmit s = new SparkSubmit(dir);
    s.hadoop("fs.dtap.impl", "dev.dtap.fs.DataTapFileSystem");
    for (Map.Entry<String, String> e :
        minio.s3aSettings(minio.accessKey(), minio.secretKey()).entrySet()) {
      String value = e.getKey().equals("fs.s3a.endpoint") ? store.toString() : e.getValue();
      s.hadoop(e.getKey(), value);
      s.hadoop("fs.dtap.tap.scan.conf." + e.getKey(), value);
      s.hadoop("fs.dtap.tap.scannc.conf." + e.getKey(), value);
    }
    s.hadoop("fs.dtap.tap.scan.uri", "s3a://" + bucket + "/scan");
    s.hadoop("fs.dtap.tap.scannc.uri", "s3a://" + bucket + "/scan");
    s.hadoop("fs.dtap.tap.scan.cache", "true");
    return s;
  }

  /**
   * @return the hadoop-aws jar on Spark's class path, which decides S3A's default input stream
   */
  private static String sparkS3a() throws IOException {
    for (String e : SparkSubmit.classpath()) {
      String name = new File(e).getName();
      if (name.startsWith("hadoop-aws-")) {
        return name;
      }
    }
    return "no hadoop-aws jar";
  }

  private static double median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
  }

  private static double round(double d) {
    return Math.round(d * 100) / 100.0;
  }
}
