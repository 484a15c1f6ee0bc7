package dev.dtap.it.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.it.fixtures.ErrorText;
import dev.dtap.it.fixtures.FaultPlan.Fault;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.ReliabilityLog;
import dev.dtap.it.fixtures.S3aTimeoutFloor;
import dev.dtap.it.fixtures.ShapingProxy;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Files written through an S3 tap (S3A's block output stream: one PUT for a small file, a multipart
 * upload for a large one) while a proxy between S3A and MinIO resets answers, cuts them short,
 * swallows a request or takes the store away part-way through the upload. A write either succeeds
 * and the object holds exactly the bytes written, or it fails with an IOException naming the dtap
 * path and the store holds what it held before (nothing, or the previous file whole) or, when only
 * the answer to the completing request was lost, the new file whole. No partial object is ever
 * visible. Incomplete uploads S3A leaves (an initiate retried after its answer was lost, an abort
 * that could not reach a downed store) are counted and reported, then aborted as a store's
 * lifecycle rule would.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(ReliabilityLog.Failures.class)
class ITestWriteFaults {
  private static final int SMALL = 700_000;
  private static final int LARGE = 12 << 20; // three parts of 5 MiB (S3A's minimum part size)
  private static final AtomicInteger FILES = new AtomicInteger();

  private MinioFixture minio;
  private ShapingProxy proxy;
  private S3aTimeoutFloor timeoutFloor;
  private String bucket;
  private ReliabilityLog log;

  /** How the store misbehaves during the write. */
  enum Injected {
    ONE_RESET("connection reset part-way through one answer"),
    EVERY_THIRD_RESET("every 3rd answer reset part-way until healed"),
    EVERY_THIRD_TRUNCATED("every 3rd answer cut short until healed"),
    ONE_BLACK_HOLE("one request swallowed (no answer)"),
    STORE_DOWN_MID_UPLOAD(
        "store down from the upload's first data request on (the PUT, or the second part)"),
    STORE_KILLED_MID_UPLOAD(
        "MinIO's process killed (SIGKILL) as the upload's first data request starts (the PUT, or"
            + " the second part), restarted once the write ended");

    final String description;

    Injected(String description) {
      this.description = description;
    }

    void inject(ShapingProxy proxy, MinioFixture minio, int size) {
      switch (this) {
        case STORE_KILLED_MID_UPLOAD:
          proxy.faults().runAtRequest(size == LARGE ? 3 : 1, minio.killer());
          return;
        case ONE_RESET:
          proxy.faults().failNext(Fault.RESET, 1);
          return;
        case EVERY_THIRD_RESET:
          proxy.faults().failEvery(Fault.RESET, 3);
          return;
        case EVERY_THIRD_TRUNCATED:
          proxy.faults().failEvery(Fault.TRUNCATE, 3);
          return;
        case ONE_BLACK_HOLE:
          proxy.faults().failNext(Fault.BLACK_HOLE, 1);
          return;
        default:
          // create()'s HEAD and LIST are behind us: a small file's PUT is the next request; a
          // large one's initiate and first part come before its second part
          proxy.faults().storeDownAfter(size == LARGE ? 3 : 1);
      }
    }
  }

  @BeforeAll
  void start() throws IOException {
    // a swallowed request ends after the 3 s the proxy routes S3A with, not after S3A's 15 s floor
    timeoutFloor = S3aTimeoutFloor.lowerTo(ShapingProxy.FAULT_TIMEOUT);
    minio = MinioFixture.restartable(); // its own: one case kills it
    bucket = minio.createBucket("write-faults");
    proxy = ShapingProxy.forFaults(minio.endpoint());
    log = ReliabilityLog.open("writes");
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

  static Stream<Arguments> cases() {
    List<Arguments> all = new ArrayList<>();
    for (Injected injected : Injected.values()) {
      for (int size : new int[] {SMALL, LARGE}) {
        all.add(Arguments.of(injected, size, false));
        all.add(Arguments.of(injected, size, true));
      }
    }
    return all.stream();
  }

  private FileSystem newFs() throws IOException {
    Configuration conf = proxy.route(minio.addTap(new Configuration(), "wf", bucket, "data"), "wf");
    String backend = "fs.dtap.tap.wf.conf.";
    conf.set(backend + "fs.s3a.multipart.size", "5M");
    conf.set(backend + "fs.s3a.fast.upload.buffer", "array");
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    conf.setBoolean(backend + "fs.s3a.impl.disable.cache", true);
    return FileSystem.newInstance(URI.create("dtap://wf/"), conf);
  }

  @ParameterizedTest(name = "{0}, {1} bytes, overwriting {2}")
  @MethodSource("cases")
  void aWriteIsWholeOrAbsentNeverPartial(Injected injected, int size, boolean overwrite)
      throws Exception {
    String key = "file-" + FILES.incrementAndGet();
    byte[] before = null;
    if (overwrite) {
      before = bytes(size / 2 + 17, key.hashCode());
      byte[] old = before;
      minio
          .client()
          .putObject(b -> b.bucket(bucket).key("data/" + key), RequestBody.fromBytes(old));
    }
    byte[] data = bytes(size, key.hashCode() + 1);
    Path path = new Path("dtap://wf/" + key);
    ReliabilityLog.Case rc =
        log.begin(
            (size == LARGE ? "multipart write (12 MiB)" : "single-PUT write (700 KB)")
                + (overwrite ? ", overwriting a file" : ", new file"),
            injected.description);
    String outcome;
    try (FileSystem fs = newFs()) {
      try {
        try (FSDataOutputStream out = fs.create(path, true)) {
          out.write(data, 0, 100_000);
          injected.inject(proxy, minio, size);
          out.write(data, 100_000, size - 100_000);
        }
        outcome = "written whole";
      } catch (IOException e) {
        assertThat(ErrorText.of(e)).as("the error names the dtap path").contains(path.toString());
        assertThat(ErrorText.of(e))
            .as("the error hides the backend")
            .doesNotContain(bucket)
            .doesNotContain(proxy.endpoint().getAuthority());
        rc.checked("the error's text: names the dtap path, not the bucket or the endpoint");
        outcome = "IOException naming the dtap path (" + e.getClass().getSimpleName() + ")";
      } finally {
        proxy.faults().heal();
        if (injected == Injected.STORE_KILLED_MID_UPLOAD) {
          minio.restart();
        }
      }
    }
    byte[] stored = stored(key);
    rc.checked("the object read straight from MinIO, compared with the new and the old bytes");
    if (outcome.equals("written whole")) {
      assertThat(stored).as("the object after a write that succeeded").isEqualTo(data);
    } else if (stored != null && java.util.Arrays.equals(stored, data)) {
      // the store completed the upload but its answer was lost: the caller was told the write
      // failed and will write again; what it sees is the whole new file, never a part of it
      outcome += "; the new file whole (the store's answer to the completing request was lost)";
    } else if (overwrite) {
      assertThat(stored).as("the previous object after a write that failed").isEqualTo(before);
      outcome += "; previous file intact";
    } else {
      assertThat(stored).as("no object after a write that failed").isNull();
      outcome += "; no object";
    }
    int pending = 0;
    for (MultipartUpload u :
        minio
            .client()
            .listMultipartUploadsPaginator(b -> b.bucket(bucket).prefix("data/" + key))
            .uploads()) {
      pending++;
      // what a store's lifecycle rule for incomplete uploads would do later
      minio
          .client()
          .abortMultipartUpload(b -> b.bucket(bucket).key(u.key()).uploadId(u.uploadId()));
    }
    rc.checked("MinIO's pending uploads at the key listed: " + pending);
    if (pending > 0) {
      outcome += "; " + pending + " incomplete upload left for the store's lifecycle rule";
    }
    rc.held(outcome, "0");
  }

  private byte[] stored(String key) {
    try {
      return minio
          .client()
          .getObjectAsBytes(b -> b.bucket(bucket).key("data/" + key))
          .asByteArray();
    } catch (NoSuchKeyException e) {
      return null;
    }
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }
}
