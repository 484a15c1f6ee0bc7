package dev.dtap.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dtap.fs.testing.Canary;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.RepoRoot;
import dev.dtap.it.fixtures.YarnFixture;
import java.io.File;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The operator's commands against real servers: MinIO for the backend, the cache and the
 * committers, and a MiniYARN cluster's ResourceManager for locality membership. Exit codes and the
 * {@code --json} output are asserted; no secret and no bucket name may appear in what is printed.
 */
class ITestToolCommands {
  private static final int MIB = 1 << 20;
  private static MinioFixture minio;
  private static String bucket;
  private static Configuration conf;
  private final ToolHarness tool = new ToolHarness();

  @BeforeAll
  static void data() throws Exception {
    minio = MinioFixture.get();
    bucket = minio.createBucket("toolcmd");
    byte[] big = new byte[3 * MIB + MIB / 2];
    new Random(7).nextBytes(big);
    minio.client().putObject(b -> b.bucket(bucket).key("data/a.bin"), RequestBody.fromBytes(big));
    minio
        .client()
        .putObject(b -> b.bucket(bucket).key("data/b.bin"), RequestBody.fromBytes(new byte[1024]));
    conf = new Configuration();
    minio.addTap(conf, "lake", bucket, "");
    conf.set("fs.dtap.tap.lake.cache", "true");
    conf.set(
        "fs.dtap.cache.dirs",
        new File(RepoRoot.data(), "tool-cache-" + System.nanoTime()).getAbsolutePath());
    // a quota of its own: the default (25 % of the volume) warns on a disk fuller than that
    conf.set("fs.dtap.cache.max.size", "1g");
    conf.set("fs.dtap.tap.lake.conf.fs.s3a.session.token.marker", Canary.secret("toolcmd"));
  }

  @Test
  void cacheCommandsWarmListAndEvictPagesOnDisk() throws Exception {
    assertThat(tool.run(conf, "cache", "ls", "--json", "dtap://lake/data")).isZero();
    assertThat(tool.json().get("pages").asLong()).isEqualTo(5); // 4 pages of a.bin, 1 of b.bin
    assertThat(tool.json().get("cached").asLong()).isZero();

    assertThat(tool.run(conf, "cache", "warm", "dtap://lake/data")).as(tool.err()).isZero();
    assertThat(tool.out())
        .contains("100%")
        .contains("Warmed 2 files")
        .contains("5 of 5 pages on disk");

    assertThat(tool.run(conf, "cache", "ls", "--json", "dtap://lake/data")).isZero();
    JsonNode files = tool.json().get("files");
    assertThat(files).hasSize(2);
    for (JsonNode f : files) {
      assertThat(f.get("percent").asLong()).as(f.toString()).isEqualTo(100);
      assertThat(f.get("disk").asLong())
          .as("page files hold the bytes and headers")
          .isGreaterThan(f.get("length").asLong());
    }
    assertThat(tool.run(conf, "cache", "stats", "--json")).isZero();
    JsonNode dir = tool.json().get("directories").get(0);
    assertThat(dir.get("pages").asLong()).isGreaterThanOrEqualTo(5);
    assertThat(dir.get("problem").isNull()).isTrue();
    assertThat(dir.get("quota").asLong()).isPositive();

    assertThat(tool.run(conf, "cache", "evict", "dtap://lake/data/a.bin")).isZero();
    assertThat(tool.out()).contains("Evicted 4 pages").contains("of 1 files");
    assertThat(tool.run(conf, "cache", "ls", "dtap://lake/data/a.bin", "--json")).isZero();
    assertThat(tool.json().get("cached").asLong()).isZero();
    assertThat(tool.run(conf, "cache", "ls", "dtap://lake/data/b.bin", "--json")).isZero();
    assertThat(tool.json().get("cached").asLong()).as("the other file keeps its page").isEqualTo(1);

    assertThat(tool.run(conf, "cache", "ls", "dtap://lake/nothing-here")).isEqualTo(1);
    assertThat(tool.err())
        .contains("dtap://lake/nothing-here")
        .doesNotContain(bucket)
        .doesNotContain("s3a:");
  }

  @Test
  void benchReadComparesColdAndWarmReadsWithTheBackend() throws Exception {
    assertThat(tool.run(conf, "bench", "read", "--json", "dtap://lake/data"))
        .as(tool.err())
        .isZero();
    JsonNode runs = tool.json().get("runs");
    assertThat(runs).hasSize(3);
    assertThat(runs.get(0).get("run").asText()).isEqualTo("backend");
    assertThat(runs.get(1).get("run").asText()).isEqualTo("dtap cold");
    assertThat(runs.get(2).get("run").asText()).isEqualTo("dtap warm");
    for (JsonNode r : runs) {
      assertThat(r.get("bytes").asLong()).as(r.toString()).isEqualTo(3L * MIB + MIB / 2 + 1024);
    }
    assertThat(tool.run(conf, "bench", "read", "dtap://lake/data")).isZero();
    assertThat(tool.out()).contains("RUN").contains("MIB/S").contains("dtap warm");
  }

  @Test
  void doctorPassesAGoodTapAndNamesWhatIsWrongWithTheOthers() throws Exception {
    Configuration c = new Configuration(conf);
    minio.addTap(c, "wrongkey", bucket, "", minio.accessKey(), Canary.secret("wrongkey"));
    minio.addTap(c, "down", bucket, "");
    c.set("fs.dtap.tap.down.conf.fs.s3a.endpoint", "http://127.0.0.1:1");
    c.set("fs.dtap.tap.down.conf.fs.s3a.attempts.maximum", "1");
    c.set("fs.dtap.tap.down.conf.fs.s3a.retry.limit", "1");
    c.set("fs.dtap.tap.down.conf.fs.s3a.retry.interval", "10ms");
    c.set("fs.dtap.tap.down.conf.fs.s3a.connection.establish.timeout", "2s");
    assertThat(tool.run(c, "doctor", "--json")).as(tool.err()).isEqualTo(1);
    JsonNode checks = tool.json().get("checks");
    assertThat(row(checks, "lake", "classpath").get("detail").asText())
        .startsWith("S3A with AWS SDK");
    assertThat(row(checks, "lake", "list root").get("status").asText()).isEqualTo("OK");
    assertThat(row(checks, "lake", "cache").get("status").asText()).isEqualTo("OK");
    // S3A answers for a bucket's root without a request: the listing is the first to reach MinIO
    assertThat(row(checks, "wrongkey", "list root").get("status").asText())
        .as(checks.toString())
        .isEqualTo("FAIL");
    assertThat(row(checks, "wrongkey", "list root").get("detail").asText())
        .contains("credentials refused");
    assertThat(row(checks, "down", "list root").get("status").asText())
        .as(checks.toString())
        .isEqualTo("FAIL");
    assertThat(row(checks, "down", "list root").get("detail").asText())
        .contains("backend unreachable");
    assertThat(tool.out()).doesNotContain(Canary.MARKER).doesNotContain(bucket);

    assertThat(tool.run(c, "doctor", "lake")).isZero();
    assertThat(tool.out()).contains("TAP").contains("STATUS").contains("credentials work");
  }

  @Test
  void localityExplainShowsEachBlocksHostsFromTheResourceManager() throws Exception {
    YarnFixture yarn = YarnFixture.get();
    Configuration c = new Configuration(yarn.conf());
    minio.addTap(c, "placed", bucket, "");
    c.set("fs.dtap.tap.placed.locality", "true");
    c.set("fs.dtap.locality.membership", "yarn");
    c.set("fs.dtap.block.size", "1m");
    assertThat(tool.run(c, "locality", "explain", "--json", "dtap://placed/data/a.bin"))
        .as(tool.err())
        .isZero();
    JsonNode r = tool.json();
    assertThat(r.get("membership_source").asText()).startsWith("ResourceManager ");
    assertThat(r.get("membership_age_ms").asLong()).isGreaterThanOrEqualTo(0);
    JsonNode hosts = r.get("hosts");
    assertThat(hosts.size()).isPositive();
    JsonNode blocks = r.get("blocks");
    assertThat(blocks).hasSize(4);
    for (JsonNode b : blocks) {
      assertThat(b.get("hosts").size()).isPositive();
      for (JsonNode h : b.get("hosts")) {
        assertThat(hosts.toString()).contains(h.asText());
      }
    }
    assertThat(blocks.get(3).get("offset").asLong()).isEqualTo(3L * MIB);
    assertThat(blocks.get(3).get("length").asLong()).isEqualTo(MIB / 2);

    Configuration noRm = new Configuration(c);
    noRm.set("yarn.resourcemanager.address", "127.0.0.1:1");
    noRm.set("yarn.resourcemanager.connect.max-wait.ms", "2000");
    noRm.set("yarn.resourcemanager.connect.retry-interval.ms", "100");
    assertThat(tool.run(noRm, "locality", "explain", "--timeout", "20", "dtap://placed/data/a.bin"))
        .isEqualTo(1);
    assertThat(tool.out()).contains("Membership source cannot be read").contains("127.0.0.1:1");

    assertThat(tool.run(conf, "locality", "explain", "dtap://lake/data/b.bin")).isZero();
    assertThat(tool.out())
        .contains("Locality is off for tap 'lake'")
        .contains("dtap://lake/data/b.bin");
  }

  @Test
  void committerPendingListsADeadJobAndAbortRemovesItsUploads() throws Exception {
    Configuration c = new Configuration(conf);
    new MagicJob(c, new Path("dtap://lake/out"), new JobID("202611240000", 3), "never committed");
    assertThat(pendingUploads()).isEqualTo(1);

    assertThat(tool.run(c, "committer", "pending", "--json", "dtap://lake/out"))
        .as(tool.err())
        .isZero();
    JsonNode jobs = tool.json().get("jobs");
    assertThat(jobs).hasSize(1);
    assertThat(jobs.get(0).get("state").asText()).isEqualTo("not committing");
    assertThat(jobs.get(0).get("journaled_uploads").asLong()).isEqualTo(1);
    assertThat(jobs.get(0).get("task_attempts").asLong()).isEqualTo(1);

    assertThat(tool.run(c, "committer", "abort", "--dry-run", "dtap://lake/out")).isZero();
    assertThat(tool.out()).contains("would be aborted");
    assertThat(pendingUploads()).as("a dry run changes nothing").isEqualTo(1);
    assertThat(tool.run(c, "committer", "abort", "--json", "dtap://lake/out")).isZero();
    assertThat(tool.json().get("jobs").get(0).get("uploads_aborted").asLong()).isEqualTo(1);
    assertThat(pendingUploads()).isZero();
    assertThat(tool.run(c, "committer", "pending", "dtap://lake/out")).isZero();
    assertThat(tool.out()).contains("No unfinished jobs in dtap://lake/out");
  }

  private static long pendingUploads() {
    return minio
        .client()
        .listMultipartUploads(b -> b.bucket(bucket).prefix("out/part-0"))
        .uploads()
        .size();
  }

  private static JsonNode row(JsonNode checks, String tap, String check) {
    for (JsonNode r : checks) {
      if (r.get("tap").asText().equals(tap) && r.get("check").asText().equals(check)) {
        return r;
      }
    }
    throw new AssertionError("no check " + check + " for tap " + tap + " in " + checks);
  }
}
