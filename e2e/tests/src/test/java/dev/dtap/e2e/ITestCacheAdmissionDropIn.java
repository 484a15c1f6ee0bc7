package dev.dtap.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.it.fixtures.MinioFixture;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Admission as a data engineer meets it once the host's cache is full: the same MapReduce job run
 * again and again over one input, each run's map task in a new JVM (an unmodified YARN, the
 * dtap-hadoop jar, core-site.xml). The first run of a one-off input on a full cache streams through
 * and pushes nothing out; the second caches it, since the host remembers what the first met; the
 * third reads next to nothing from the store.
 */
class ITestCacheAdmissionDropIn {
  private static final int MIB = 1 << 20;

  @Test
  void onAFullCacheTheSecondRunOfAJobCachesItsInputAndTheThirdReadsItFromTheCache()
      throws Exception {
    MinioFixture minio = MinioFixture.get();
    Random random = new Random(23);
    byte[] filler = new byte[24 * MIB];
    byte[] report = new byte[12 * MIB];
    random.nextBytes(filler);
    random.nextBytes(report);
    CRC32 crc = new CRC32();
    crc.update(report);
    // every task JVM reads the cache quota from the job's configuration
    String quota = "-Dfs.dtap.cache.max.size=" + 24 * MIB;
    try (MapReduceCluster cluster = MapReduceCluster.start("admission")) {
      minio
          .client()
          .putObject(
              b -> b.bucket(cluster.bucket).key("lake/filler.bin"), RequestBody.fromBytes(filler));
      minio
          .client()
          .putObject(
              b -> b.bucket(cluster.bucket).key("lake/report.bin"), RequestBody.fromBytes(report));
      run(cluster, quota, "filler.bin", "fill"); // another job's input fills the cache

      long[] fromStore = new long[3];
      for (int i = 0; i < fromStore.length; i++) {
        long before = minio.trafficSentBytes();
        String out = run(cluster, quota, "report.bin", "report-" + i);
        fromStore[i] = minio.trafficSentBytes() - before;
        List<String> lines = cluster.outputLines(out);
        assertThat(lines).as("run %d's read of the input", i + 1).hasSize(1);
        assertThat(lines.get(0))
            .as("run %d's read of the input", i + 1)
            .startsWith("task-0\t" + crc.getValue() + " " + report.length + " ");
      }
      System.out.printf(
          "admission e2e: a %d MiB input on a full %d MiB cache, bytes from the store per run:"
              + " %d, %d, %d%n",
          report.length / MIB, 24, fromStore[0], fromStore[1], fromStore[2]);
      assertThat(fromStore[0])
          .as("the first run on a full cache streams through")
          .isGreaterThanOrEqualTo(report.length);
      assertThat(fromStore[2])
          .as("the third run: the second cached what the host saw the first meet")
          .isLessThanOrEqualTo(report.length / 10);
    }
  }

  private static String run(MapReduceCluster cluster, String quota, String input, String name)
      throws Exception {
    String out = cluster.hdfs + "/admission/" + name;
    ChildJvm.Result job =
        cluster
            .client(name)
            .run("dev.dtap.e2e.hadoop.ReReadJob", 10, quota, "dtap://lake/" + input, out, "1");
    assertThat(job.exit).as("the job over %s; its log:%n%s", input, job.tail()).isZero();
    return out;
  }
}
