package dev.dtap.bench;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a tap costs on top of its backend: {@code getFileStatus}, {@code listStatus} of 1,000
 * entries and {@code open} plus a 1 MiB read, on a local-directory tap ({@code target=dtap}) and on
 * the same directory through Hadoop's local filesystem directly ({@code target=file}). Compare the
 * two targets of one run.
 *
 * <pre>java -jar jmh/target/benchmarks.jar TapOverheadBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 8, time = 1)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xmx1g"})
public class TapOverheadBenchmark {
  @Param({"file", "dtap", "dtap-nocheck"})
  public String target;

  private File root;
  private FileSystem fs;
  private Path statPath;
  private Path listDir;
  private Path dataPath;
  private final byte[] buffer = new byte[1 << 20];

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    root = BenchmarkSupport.scratch("overhead");
    Files.write(new File(root, "stat-me").toPath(), new byte[100]);
    File list = new File(root, "list");
    if (!list.mkdirs()) {
      throw new IOException("Cannot create " + list);
    }
    for (int i = 0; i < 1000; i++) {
      Files.write(new File(list, String.format("part-%05d", i)).toPath(), new byte[10]);
    }
    byte[] data = new byte[1 << 20];
    new Random(42).nextBytes(data);
    Files.write(new File(root, "data.bin").toPath(), data);

    Configuration conf = new Configuration();
    String base;
    if (target.startsWith("dtap")) {
      conf.set("fs.dtap.tap.bench.uri", root.toURI().toString());
      conf.set("fs.dtap.tap.bench.check-symlinks", String.valueOf(!target.endsWith("nocheck")));
      fs = FileSystem.newInstance(URI.create("dtap://bench/"), conf);
      base = "dtap://bench";
    } else {
      fs = FileSystem.newInstance(URI.create("file:///"), conf);
      base = "file://" + root.getPath();
    }
    statPath = new Path(base + "/stat-me");
    listDir = new Path(base + "/list");
    dataPath = new Path(base + "/data.bin");
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    fs.close();
    BenchmarkSupport.deleteTree(root);
  }

  @Benchmark
  public FileStatus getFileStatus() throws IOException {
    return fs.getFileStatus(statPath);
  }

  @Benchmark
  public FileStatus[] listStatus1000() throws IOException {
    return fs.listStatus(listDir);
  }

  @Benchmark
  public long openRead1MiB() throws IOException {
    long total = 0;
    try (InputStream in = fs.open(dataPath)) {
      int n;
      while ((n = in.read(buffer, 0, buffer.length)) > 0) {
        total += n;
      }
    }
    return total;
  }
}
