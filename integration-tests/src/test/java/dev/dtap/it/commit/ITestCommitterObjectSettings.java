package dev.dtap.it.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.CommitTesting;
import dev.dtap.it.fixtures.MinioFixture;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Every object the magic committer writes (the journal, task records, the commit intent, the output
 * and {@code _SUCCESS}) is written as S3A writes its own objects for the same tap, on MinIO with
 * its KMS: SSE-S3 over http; over TLS, plain, SSE-KMS with a key, SSE-KMS set per bucket and SSE-C
 * (MinIO takes SSE-C over https only, and S3A of Hadoop 3.3 sends SSE-KMS over https only). The
 * store's HEAD of each is compared with its HEAD of an object S3A wrote through the same tap.
 */
class ITestCommitterObjectSettings {
  /** 32 bytes in base64 that carry the secret marker, so the build's leak scan watches them too. */
  private static final String SSE_C_KEY =
      dev.dtap.fs.testing.Canary.MARKER + "sseCkeyForTheTestsOfDtapCommit0=";

  private static int taps;

  private FileSystem fs;

  @AfterEach
  void close() throws Exception {
    if (fs != null) {
      fs.close();
    }
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("SSE-S3", false, Map.of("fs.s3a.encryption.algorithm", "AES256")),
        // over TLS: S3A of Hadoop 3.3 (SDK v1) sends SSE-KMS requests over https only
        Arguments.of(
            "SSE-KMS",
            true,
            Map.of(
                "fs.s3a.encryption.algorithm",
                "SSE-KMS",
                "fs.s3a.encryption.key",
                MinioFixture.KMS_KEY)),
        Arguments.of(
            "SSE-KMS per bucket",
            true,
            Map.of(
                "fs.s3a.bucket.%s.encryption.algorithm",
                "SSE-KMS", "fs.s3a.bucket.%s.encryption.key", MinioFixture.KMS_KEY)),
        Arguments.of("TLS", true, Map.of()),
        Arguments.of(
            "SSE-C over TLS",
            true,
            Map.of("fs.s3a.encryption.algorithm", "SSE-C", "fs.s3a.encryption.key", SSE_C_KEY)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void committedObjectsCarryS3asSettings(String name, boolean tls, Map<String, String> s3a)
      throws Exception {
    MinioFixture minio = tls ? MinioFixture.tls() : MinioFixture.get();
    String bucket = minio.createBucket("settings");
    String tap = "settings" + (++taps);
    Configuration conf = minio.addTap(new Configuration(), tap, bucket, "w");
    s3a.forEach((k, v) -> conf.set("fs.dtap.tap." + tap + ".conf." + String.format(k, bucket), v));
    boolean ssec = s3a.containsValue("SSE-C");
    S3Client client = minio.client();

    fs = FileSystem.newInstance(new Path("dtap://" + tap + "/").toUri(), conf);
    try (FSDataOutputStream out = fs.create(new Path("dtap://" + tap + "/reference"))) {
      out.write("written by S3A".getBytes(StandardCharsets.UTF_8));
    }
    HeadObjectResponse reference = head(client, bucket, "w/reference", ssec);
    if (!s3a.isEmpty()) {
      assertThat(ssec ? reference.sseCustomerAlgorithm() : reference.serverSideEncryptionAsString())
          .as("S3A encrypted its own object")
          .isNotNull();
    }

    Map<String, HeadObjectResponse> written = new LinkedHashMap<>();
    // through the committers' own filesystem of the tap: Hadoop's filesystem cache stays on
    CommitTesting.onCommitStep(
        new Path("dtap://" + tap + "/"),
        conf,
        (step, count) -> {
          if (step.equals("intent-written")) {
            for (String key : jobKeys(client, bucket)) {
              if (key.endsWith("/commit")) {
                written.put("intent", head(client, bucket, key, ssec));
              }
            }
          }
        });
    Path dest = new Path("dtap://" + tap + "/out");
    List<String> files =
        new CommitJob(conf, dest)
            .run(
                2,
                () -> {
                  for (String key : jobKeys(client, bucket)) {
                    written.put(
                        key.contains("/journal/") ? "journal entry " + key : "task record " + key,
                        head(client, bucket, key, ssec));
                  }
                });
    for (String f : files) {
      written.put("output " + f, head(client, bucket, "w/out/" + f, ssec));
    }
    written.put("_SUCCESS", head(client, bucket, "w/out/_SUCCESS", ssec));

    assertThat(written.keySet())
        .as("journal entries, task records, intent, output and _SUCCESS were all seen")
        .anyMatch(k -> k.startsWith("journal entry"))
        .anyMatch(k -> k.startsWith("task record"))
        .contains("intent", "_SUCCESS", "output part-0", "output part-1");
    for (Map.Entry<String, HeadObjectResponse> e : written.entrySet()) {
      HeadObjectResponse h = e.getValue();
      assertThat(h.serverSideEncryptionAsString())
          .as(name + ": " + e.getKey())
          .isEqualTo(reference.serverSideEncryptionAsString());
      assertThat(h.ssekmsKeyId()).as(name + ": " + e.getKey()).isEqualTo(reference.ssekmsKeyId());
      assertThat(h.sseCustomerAlgorithm())
          .as(name + ": " + e.getKey())
          .isEqualTo(reference.sseCustomerAlgorithm());
      assertThat(h.storageClassAsString())
          .as(name + ": " + e.getKey())
          .isEqualTo(reference.storageClassAsString());
    }
    String success =
        new String(read(client, bucket, "w/out/_SUCCESS", ssec), StandardCharsets.UTF_8);
    assertThat(success)
        .as("_SUCCESS names dtap paths only")
        .contains("dtap://" + tap + "/out")
        .doesNotContain("s3a://")
        .doesNotContain(bucket);
  }

  /** The keys of the job's commit data: journal entries, task records, the intent. */
  private static List<String> jobKeys(S3Client client, String bucket) {
    List<String> keys = new ArrayList<>();
    for (S3Object o :
        client
            .listObjectsV2Paginator(b -> b.bucket(bucket).prefix("w/out/__dtap_job-"))
            .contents()) {
      if (!o.key().contains("/probe")) {
        keys.add(o.key());
      }
    }
    return keys;
  }

  private static HeadObjectResponse head(S3Client client, String bucket, String key, boolean ssec) {
    HeadObjectRequest.Builder b = HeadObjectRequest.builder().bucket(bucket).key(key);
    if (ssec) {
      b.sseCustomerAlgorithm("AES256").sseCustomerKey(SSE_C_KEY).sseCustomerKeyMD5(keyMd5());
    }
    return client.headObject(b.build());
  }

  private static byte[] read(S3Client client, String bucket, String key, boolean ssec) {
    return client
        .getObjectAsBytes(
            b -> {
              b.bucket(bucket).key(key);
              if (ssec) {
                b.sseCustomerAlgorithm("AES256")
                    .sseCustomerKey(SSE_C_KEY)
                    .sseCustomerKeyMD5(keyMd5());
              }
            })
        .asByteArray();
  }

  private static String keyMd5() {
    try {
      return Base64.getEncoder()
          .encodeToString(
              MessageDigest.getInstance("MD5").digest(Base64.getDecoder().decode(SSE_C_KEY)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
