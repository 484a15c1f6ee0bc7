package dev.dtap.it.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.cache.CacheAdmin;
import dev.dtap.it.fixtures.ErrorText;
import dev.dtap.it.fixtures.FaultPlan.Fault;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.ReliabilityLog;
import dev.dtap.it.fixtures.RepoRoot;
import dev.dtap.it.fixtures.S3aTimeoutFloor;
import dev.dtap.it.fixtures.ShapingProxy;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.functional.FutureIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Reads through an S3 tap while a proxy between S3A and MinIO resets answers, cuts them short,
 * swallows requests, throttles them (503) or fails them (500) in the store's place, or takes the
 * store away, part-way through the read. Every read returns exactly the object's bytes or fails
 * with an IOException naming the dtap path, within S3A's bounded retries; once the store is healthy
 * again, the same object reads back exactly, from the backend and (cache on) from the pages the
 * faulty read may have left, so no torn page was kept.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(ReliabilityLog.Failures.class)
class ITestReadFaults {
  private static final int PAGE = 64 << 10;
  private static final int LENGTH = 16 * PAGE + 4321;
  private static final AtomicInteger OBJECTS = new AtomicInteger();

  private MinioFixture minio;
  private ShapingProxy proxy;
  private S3aTimeoutFloor timeoutFloor;
  private String bucket;
  private File cacheDir;
  private ReliabilityLog log;

  /** How the store misbehaves, and for how long. */
  enum Injected {
    ONE_RESET(Fault.RESET, 1),
    RESETS_UNTIL_HEALED(Fault.RESET, 0),
    ONE_TRUNCATION(Fault.TRUNCATE, 1),
    TRUNCATIONS_UNTIL_HEALED(Fault.TRUNCATE, 0),
    ONE_BLACK_HOLE(Fault.BLACK_HOLE, 1),
    ONE_THROTTLE(Fault.THROTTLE, 1),
    THROTTLED_UNTIL_HEALED(Fault.THROTTLE, 0),
    ONE_SERVER_ERROR(Fault.SERVER_ERROR, 1),
    SERVER_ERRORS_UNTIL_HEALED(Fault.SERVER_ERROR, 0),
    STORE_DOWN(null, 0),
    STORE_KILLED(null, 0);

    final Fault fault;
    final int times;

    Injected(Fault fault, int times) {
      this.fault = fault;
      this.times = times;
    }

    void inject(ShapingProxy proxy, MinioFixture minio) {
      if (this == STORE_KILLED) {
        minio.killer().run();
      } else if (fault == null) {
        proxy.storeDown();
      } else if (times > 0) {
        proxy.faults().failNext(fault, times);
      } else {
        proxy.faults().failEvery(fault, 1);
      }
    }

    String describe() {
      switch (this) {
        case ONE_RESET:
          return "connection reset part-way through one answer";
        case RESETS_UNTIL_HEALED:
          return "every answer reset part-way until healed";
        case ONE_TRUNCATION:
          return "one answer cut short (clean end of stream)";
        case TRUNCATIONS_UNTIL_HEALED:
          return "every answer cut short until healed";
        case ONE_BLACK_HOLE:
          return "one request swallowed (no answer)";
        case ONE_THROTTLE:
          return "one request throttled (503 SlowDown)";
        case THROTTLED_UNTIL_HEALED:
          return "every request throttled (503 SlowDown) until healed";
        case ONE_SERVER_ERROR:
          return "one request failed by the store (500 InternalError)";
        case SERVER_ERRORS_UNTIL_HEALED:
          return "every request failed by the store (500 InternalError) until healed";
        case STORE_KILLED:
          return "MinIO's process killed (SIGKILL), restarted once the read ended";
        default:
          return "store down (connections reset) until healed";
      }
    }
  }

  enum Kind {
    SEQUENTIAL,
    RANDOM,
    VECTORED
  }

  @BeforeAll
  void startStoreAndProxy() throws IOException {
    // a swallowed request ends after the 3 s the proxy routes S3A with, not after S3A's 15 s floor
    timeoutFloor = S3aTimeoutFloor.lowerTo(ShapingProxy.FAULT_TIMEOUT);
    minio = MinioFixture.restartable(); // its own: one case kills it
    bucket = minio.createBucket("faults");
    proxy = ShapingProxy.forFaults(minio.endpoint());
    cacheDir = new File(RepoRoot.data(), "read-faults-" + System.nanoTime());
    log = ReliabilityLog.open("reads");
  }

  @AfterAll
  void stopProxy() {
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

  static Stream<Arguments> cases() {
    List<Arguments> all = new ArrayList<>();
    for (Injected injected : Injected.values()) {
      for (Kind kind : Kind.values()) {
        all.add(Arguments.of(injected, kind, false, false));
        all.add(Arguments.of(injected, kind, true, false));
        all.add(Arguments.of(injected, kind, true, true));
      }
    }
    return all.stream();
  }

  private FileSystem newFs(boolean cache) throws IOException {
    return newFs(cache, null);
  }

  /**
   * A filesystem over the proxy. For a store that throttles or fails every request, S3A's retries
   * are cut to a few quick ones, so that the case sees them spent instead of riding them out for
   * minutes; S3A's own settings, read for the tap as for any S3A filesystem.
   */
  private FileSystem newFs(boolean cache, Injected injected) throws IOException {
    Configuration conf = proxy.route(minio.addTap(new Configuration(), "rf", bucket, "data"), "rf");
    if (injected != null
        && injected.fault != null
        && injected.fault.status() != 0
        && injected.times == 0) {
      conf.setInt("fs.s3a.attempts.maximum", 1);
      conf.setInt("fs.s3a.retry.limit", 2);
      conf.set("fs.s3a.retry.interval", "50ms");
      conf.setInt("fs.s3a.retry.throttle.limit", 2);
      conf.set("fs.s3a.retry.throttle.interval", "50ms");
    }
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    conf.setBoolean("fs.dtap.tap.rf.cache", cache);
    conf.set("fs.dtap.cache.dirs", cacheDir.getAbsolutePath());
    conf.set("fs.dtap.cache.page.size", "64k");
    return FileSystem.newInstance(URI.create("dtap://rf/"), conf);
  }

  private byte[] put(String key) {
    byte[] data = new byte[LENGTH];
    new Random(key.hashCode()).nextBytes(data);
    minio.client().putObject(b -> b.bucket(bucket).key("data/" + key), RequestBody.fromBytes(data));
    return data;
  }

  @ParameterizedTest(name = "{0} during a {1} read, cache {2}, warm {3}")
  @MethodSource("cases")
  void aFaultyStoreYieldsExactBytesOrAnErrorNamingThePath(
      Injected injected, Kind kind, boolean cache, boolean warm) throws Exception {
    String key = "obj-" + OBJECTS.incrementAndGet();
    byte[] expected = put(key);
    Path path = new Path("dtap://rf/" + key);
    ReliabilityLog.Case rc =
        log.begin(
            kind.name().toLowerCase()
                + " read, cache "
                + (cache ? "on" : "off")
                + (cache ? (warm ? ", warm" : ", cold") : ""),
            injected.describe());
    String outcome;
    try (FileSystem fs = newFs(cache, injected)) {
      if (warm) {
        assertThat(readSequential(fs, path, () -> {})).isEqualTo(expected);
        CacheAdmin.flushWrites();
      }
      try {
        long before = proxy.faults().injectedTotal();
        long requests = proxy.requests();
        read(fs, path, kind, expected, () -> injected.inject(proxy, minio));
        long hit = proxy.faults().injectedTotal() - before;
        rc.checked("the bytes read under the fault compared with the object's");
        outcome =
            "exact bytes; faults hit "
                + hit
                + " exchange(s), requests "
                + (proxy.requests() - requests);
      } catch (IOException e) {
        // one failed exchange is what S3A's own positioned read retries: every read path does
        assertThat(injected.times)
            .as("a single failed exchange ends a %s read: %s", kind, ErrorText.of(e))
            .isZero();
        assertThat(ErrorText.of(e)).as("the error names the dtap path").contains(path.toString());
        assertThat(ErrorText.of(e))
            .as("the error hides the backend")
            .doesNotContain(bucket)
            .doesNotContain(proxy.endpoint().getAuthority());
        rc.checked("the error's text: names the dtap path, not the bucket or the endpoint")
            .checked("the fault was not a single exchange");
        outcome = "IOException naming the dtap path (" + e.getClass().getSimpleName() + ")";
      } finally {
        proxy.faults().heal();
        if (injected == Injected.STORE_KILLED) {
          minio.restart();
        }
      }
      // healthy again: the object reads back exactly, twice (the second from any page kept)
      assertThat(readSequential(fs, path, () -> {})).as("after healing").isEqualTo(expected);
      CacheAdmin.flushWrites();
      assertThat(readSequential(fs, path, () -> {})).as("after healing, again").isEqualTo(expected);
      read(fs, path, Kind.RANDOM, expected, () -> {});
    }
    rc.checked("after healing, the object read whole twice and at random positions, compared")
        .held(outcome, "0");
  }

  /** Reads in the given way, checking every byte, and calls {@code fault} part-way through. */
  private static void read(FileSystem fs, Path path, Kind kind, byte[] expected, Runnable fault)
      throws IOException {
    switch (kind) {
      case SEQUENTIAL:
        assertThat(readSequential(fs, path, fault)).isEqualTo(expected);
        return;
      case RANDOM:
        readRandom(fs, path, expected, fault);
        return;
      default:
        readVectored(fs, path, expected, fault);
    }
  }

  private static byte[] readSequential(FileSystem fs, Path path, Runnable fault)
      throws IOException {
    byte[] out = new byte[LENGTH];
    try (FSDataInputStream in = fs.open(path)) {
      // before the first read: on loopback the whole object is in socket buffers soon after it
      fault.run();
      in.readFully(out, 0, LENGTH / 4);
      in.readFully(out, LENGTH / 4, LENGTH - LENGTH / 4);
      assertThat(in.read()).as("end of " + path).isEqualTo(-1);
    }
    return out;
  }

  private static void readRandom(FileSystem fs, Path path, byte[] expected, Runnable fault)
      throws IOException {
    Random random = new Random(7);
    try (FSDataInputStream in =
        FutureIO.awaitFuture(
            fs.openFile(path).opt("fs.option.openfile.read.policy", "random").build())) {
      for (int i = 0; i < 16; i++) {
        if (i == 4) {
          fault.run();
        }
        int length = 1 + random.nextInt(20_000);
        int offset = random.nextInt(LENGTH - length);
        byte[] got = new byte[length];
        in.readFully(offset, got);
        assertThat(got)
            .as("bytes at " + offset)
            .isEqualTo(Arrays.copyOfRange(expected, offset, offset + length));
      }
    }
  }

  private static void readVectored(FileSystem fs, Path path, byte[] expected, Runnable fault)
      throws IOException {
    List<FileRange> ranges = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      ranges.add(FileRange.createFileRange(i * (LENGTH / 6L) + 100, 9_000 + i * 1000));
    }
    try (FSDataInputStream in = fs.open(path)) {
      byte[] first = new byte[100];
      in.readFully(0, first);
      fault.run();
      in.readVectored(ranges, ByteBuffer::allocate);
      for (FileRange r : ranges) {
        ByteBuffer data = FutureIO.awaitFuture(r.getData());
        byte[] got = new byte[r.getLength()];
        data.get(got);
        int offset = (int) r.getOffset();
        assertThat(got)
            .as("range at " + offset)
            .isEqualTo(Arrays.copyOfRange(expected, offset, offset + r.getLength()));
      }
    }
  }
}
