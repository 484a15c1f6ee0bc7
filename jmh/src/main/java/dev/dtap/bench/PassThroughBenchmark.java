package dev.dtap.bench;

import dev.dtap.cache.CacheAdmin;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.functional.FutureIO;
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
 * A first scan through a cached tap over local files, in small reads: the cache has none of the
 * file's pages, so every byte passes through from the backend's stream. One op reads a file from a
 * new stream in reads of {@code read} bytes: 16 MiB, or 64 Ki reads where that is less (64 KiB in
 * one-byte reads).
 *
 * <ul>
 *   <li>{@code impl}: {@code local} (Hadoop's checksummed local filesystem, which a {@code file:}
 *       tap reads through), {@code dtap} (a tap over the same directory, no cache), {@code
 *       dtap-cold} (the same tap with the cache on, emptied before every op).
 *   <li>{@code read}: bytes per read call ({@code 1}: {@code read()});
 *   <li>{@code policy}: the stream's read policy, {@code sequential} or {@code default} (opened
 *       with {@code open()}, as most jobs' record readers do).
 * </ul>
 *
 * Compare the impls of one run, per read size.
 *
 * <pre>java -jar jmh/target/benchmarks.jar PassThroughBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g", "-XX:+UseParallelGC"})
public class PassThroughBenchmark {
  static final int SIZE = 16 << 20;

  @Param({"local", "dtap", "dtap-cold"})
  public String impl;

  @Param({"1", "4096"})
  public int read;

  @Param({"sequential", "default"})
  public String policy;

  private long span;

  private File scratch;
  private FileSystem fs;
  private Path path;
  private byte[] buffer;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    buffer = new byte[read];
    span = Math.min(SIZE, 65536L * read);
    scratch = BenchmarkSupport.scratch("passthrough");
    File root = new File(scratch, "tap");
    Files.createDirectories(root.toPath());
    byte[] data = new byte[SIZE];
    new Random(7).nextBytes(data);
    Configuration conf = new Configuration();
    if (impl.equals("local")) {
      fs = new LocalFileSystem();
      fs.initialize(URI.create("file:///"), conf);
      path = new Path(new File(root, "data.bin").toURI());
    } else {
      conf.set("fs.dtap.tap.pass.uri", root.toURI().toString());
      conf.setBoolean("fs.dtap.impl.disable.cache", true);
      conf.setBoolean("fs.dtap.tap.pass.cache", impl.equals("dtap-cold"));
      conf.set("fs.dtap.cache.dirs", new File(scratch, "cache").getAbsolutePath());
      fs = FileSystem.newInstance(URI.create("dtap://pass/"), conf);
      path = new Path("dtap://pass/data.bin");
    }
    // written through the filesystem read, so a local file has the checksum file it reads with
    try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(path, true)) {
      out.write(data);
    }
  }

  @Setup(Level.Invocation)
  public void coldCache() throws Exception {
    if (impl.equals("dtap-cold")) {
      CacheAdmin.clearAll();
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    fs.close();
    BenchmarkSupport.deleteTree(scratch);
  }

  @Benchmark
  public long scan() throws IOException {
    try (FSDataInputStream in =
        policy.equals("default")
            ? fs.open(path)
            : FutureIO.awaitFuture(
                fs.openFile(path).opt("fs.option.openfile.read.policy", policy).build())) {
      long total = 0;
      long sum = 0;
      while (total < span) {
        if (read == 1) {
          int b = in.read();
          if (b < 0) {
            break;
          }
          sum += b;
          total++;
        } else {
          int n = in.read(buffer, 0, (int) Math.min(read, span - total));
          if (n < 0) {
            break;
          }
          sum += buffer[0];
          total += n;
        }
      }
      if (total != span) {
        throw new IllegalStateException("read " + total + " of " + span + " bytes");
      }
      return sum;
    }
  }
}
