package dev.dtap.bench;

import dev.dtap.fs.config.DataTapConfig;
import dev.dtap.fs.config.TapConfig;
import dev.dtap.fs.spi.LocalityResolver;
import dev.dtap.fs.spi.TapContext;
import dev.dtap.locality.DtapLocalityResolverFactory;
import dev.dtap.locality.LocalityKeys;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
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
 * The cost of placing one block: the locality resolver's answer for one block of a file (hash of
 * tap, path and block index; ring lookup; three distinct hosts; the {@link BlockLocation}), with
 * {@code nodes} hosts in the membership. Files cycle through 4,096 distinct realistic paths.
 *
 * <pre>java -jar jmh/target/benchmarks.jar PlacementBenchmark -prof gc</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xmx1g"})
public class PlacementBenchmark {
  @Param({"10", "100", "1000"})
  public int nodes;

  private LocalityResolver resolver;
  private FileStatus[] files;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Configuration conf = new Configuration(false);
    StringBuilder hosts = new StringBuilder();
    for (int i = 0; i < nodes; i++) {
      hosts
          .append(i == 0 ? "" : ",")
          .append(String.format("worker-%04d.rack%02d.example.com", i, i % 40));
    }
    conf.set(LocalityKeys.HOSTS.name(), hosts.toString());
    conf.set("fs.dtap.tap.bench.uri", "hdfs://namenode.example.com:8020/warehouse");
    TapConfig tap =
        DataTapConfig.parse(conf, new DtapLocalityResolverFactory().keys()).tap("bench");
    resolver = new DtapLocalityResolverFactory().create(new StubTap(tap, conf));
    Random r = new Random(42);
    files = new FileStatus[4096];
    for (int i = 0; i < files.length; i++) {
      String path =
          "hdfs://namenode.example.com:8020/warehouse/db"
              + r.nextInt(20)
              + "/table"
              + r.nextInt(500)
              + "/dt=2026-11-"
              + (1 + r.nextInt(28))
              + "/part-"
              + String.format("%05d", r.nextInt(100_000))
              + "-c000.snappy.parquet";
      long length = (1 + r.nextInt(8)) * (128L << 20);
      files[i] = new FileStatus(length, false, 3, 128L << 20, 0, new Path(path));
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    resolver.close();
  }

  /** One block of the next file: the per-block cost split planning pays. */
  @Benchmark
  public BlockLocation[] locateOneBlock() throws IOException {
    FileStatus f = files[next++ & 4095];
    long block = (next & 7) * (128L << 20) % f.getLen();
    return resolver.locate(f, block, 1);
  }

  /** What a resolver sees of its tap; no backend calls happen once membership is known. */
  private static final class StubTap implements TapContext {
    private final TapConfig config;
    private final Configuration conf;

    StubTap(TapConfig config, Configuration conf) {
      this.config = config;
      this.conf = conf;
    }

    @Override
    public TapConfig config() {
      return config;
    }

    @Override
    public Configuration siteConfiguration() {
      return conf;
    }

    @Override
    public Configuration backendConfiguration() {
      return conf;
    }

    @Override
    public FileSystem backend() {
      throw new IllegalStateException("the placement benchmark has no backend");
    }

    @Override
    public Path toBackend(Path dtapPath) {
      throw new IllegalStateException("not used");
    }

    @Override
    public Path toDtap(Path backendPath) {
      throw new IllegalStateException("not used");
    }

    @Override
    public void addStatisticsSource(IOStatisticsSource source) {}
  }
}
