package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.CommitTesting;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.NoSuchUploadException;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.audit.AuditConstants;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.SdkHttpMethod;

/**
 * dtap's own requests on the wire, against a scripted loopback server: they carry S3A's settings, a
 * signed payload hash (or an unsigned payload with its checksum), S3A's key and no secret; they
 * retry what the SDK retries, correct for clock skew, and classify the store's answers.
 */
class TestHttpUploads {
  private static final String KEY = "warehouse/dir/a b+ü.txt";

  private ScriptedS3 server;
  private FileSystem fs;

  @BeforeEach
  void start() throws IOException {
    server = new ScriptedS3();
  }

  @AfterEach
  void stop() throws IOException {
    if (fs != null) {
      fs.close();
    }
    server.close();
  }

  private MultipartStore store(Map<String, String> s3a, Map<String, String> site)
      throws IOException {
    Map<String, String> dtap = new HashMap<>(site);
    dtap.putIfAbsent("fs.dtap.committer.transport", "http");
    Configuration conf = OfflineS3a.tap(OfflineS3a.conf(server.endpoint(), s3a), dtap);
    fs = OfflineS3a.dtap(conf);
    MultipartStore store = CommitTesting.store(new Path("dtap://lake/"), conf);
    assertThat(((S3aV2Store) store).uploads()).isInstanceOf(HttpUploads.class);
    return store;
  }

  private static byte[] random(int n) {
    byte[] b = new byte[n];
    new Random(n).nextBytes(b);
    return b;
  }

  private static String sha256Hex(byte[] b) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (byte x : MessageDigest.getInstance("SHA-256").digest(b)) {
      sb.append(String.format(Locale.ROOT, "%02x", x));
    }
    return sb.toString();
  }

  @Test
  void requestsCarryS3asSettingsAndASignedPayloadAndNoSecret() throws Exception {
    MultipartStore store =
        store(
            Map.of("fs.s3a.encryption.algorithm", "SSE-KMS", "fs.s3a.encryption.key", "kms-key-1"),
            Map.of());
    String id = store.initiate(KEY);
    assertThat(id).isEqualTo("up+1/=");
    ScriptedS3.Request initiate = server.last();
    assertThat(initiate.target).isEqualTo("/bucket/warehouse/dir/a%20b%2B%C3%BC.txt?uploads");
    assertThat(initiate.header("x-amz-server-side-encryption")).isEqualTo("aws:kms");
    assertThat(initiate.header("x-amz-server-side-encryption-aws-kms-key-id"))
        .isEqualTo("kms-key-1");
    assertThat(initiate.header("content-type")).isEqualTo("binary/octet-stream");
    assertThat(initiate.header("authorization"))
        .startsWith("AWS4-HMAC-SHA256 Credential=" + OfflineS3a.ACCESS_KEY + "/")
        .contains("/us-east-1/s3/aws4_request")
        .contains("x-amz-server-side-encryption")
        .contains("host;");
    assertThat(initiate.header("x-amz-content-sha256")).isEqualTo(sha256Hex(new byte[0]));

    byte[] first = random(100_000);
    byte[] second = random(70_000);
    PartData data = PartData.of(List.of(first, Arrays.copyOf(second, 90_000)), 170_000);
    UploadedPart p = store.uploadPart(KEY, id, 1, data);
    ScriptedS3.Request part = server.last();
    byte[] sent = new byte[170_000];
    System.arraycopy(first, 0, sent, 0, first.length);
    System.arraycopy(second, 0, sent, first.length, second.length);
    assertThat(part.body)
        .as("the part's bytes, not the unused end of its last array")
        .isEqualTo(sent);
    assertThat(part.target)
        .isEqualTo("/bucket/warehouse/dir/a%20b%2B%C3%BC.txt?partNumber=1&uploadId=up%2B1%2F%3D");
    assertThat(part.header("x-amz-content-sha256"))
        .as("the payload is signed over http")
        .isEqualTo(sha256Hex(sent));
    assertThat(p.etag()).isEqualTo("\"" + ScriptedS3.md5(sent) + "\"");
    assertThat(p.checksum()).isNull();

    assertThat(store.complete(KEY, id, List.of(p))).isEqualTo("\"done-1\"");
    assertThat(server.last().bodyText())
        .contains(
            "<Part><PartNumber>1</PartNumber><ETag>&quot;"
                + ScriptedS3.md5(sent)
                + "&quot;</ETag></Part>");

    store.put("warehouse/rec", "x".getBytes(StandardCharsets.UTF_8));
    assertThat(server.last().header("content-type")).isEqualTo("application/octet-stream");
    assertThat(server.last().header("x-amz-server-side-encryption")).isEqualTo("aws:kms");

    for (ScriptedS3.Request r : server.requests()) {
      assertThat(r.headers.toString() + r.target + r.bodyText())
          .doesNotContain(OfflineS3a.SECRET_KEY);
    }
  }

  @Test
  void everyRequestCarriesS3asAuditReferrerAmongItsSignedHeaders() throws Exception {
    MultipartStore store = store(Map.of(), Map.of());
    String id = store.initiate(KEY);
    UploadedPart p = store.uploadPart(KEY, id, 1, PartData.of(List.of(random(10)), 10));
    store.complete(KEY, id, List.of(p));
    store.put("warehouse/rec", new byte[] {1});
    List<ScriptedS3.Request> sent = server.requests();
    assertThat(sent).hasSize(4);
    String[] ops = {"initiate", "upload_part", "complete", "put"};
    Set<String> spanIds = new HashSet<>();
    for (int i = 0; i < ops.length; i++) {
      ScriptedS3.Request r = sent.get(i);
      assertThat(r.header("referer"))
          .as("S3A's logging auditor names the operation's span and the object")
          .contains("op=dtap_committer_" + ops[i])
          .contains("p1=warehouse");
      assertThat(r.header("authorization"))
          .as("signed, as the SDK signs the header its interceptor added")
          .contains("referer");
      Matcher span =
          Pattern.compile("[?&]" + AuditConstants.PARAM_ID + "=([^&]+)")
              .matcher(r.header("referer"));
      assertThat(span.find()).as("a span id in %s", r.header("referer")).isTrue();
      spanIds.add(span.group(1));
    }
    assertThat(spanIds).as("each request has a span of its own").hasSize(ops.length);
  }

  @Test
  void theUserAgentStartsAsS3asDoes() throws Exception {
    String hadoop = "Hadoop " + org.apache.hadoop.util.VersionInfo.getVersion();
    store(Map.of(), Map.of()).put("warehouse/rec", new byte[] {1});
    assertThat(server.last().header("user-agent")).startsWith(hadoop + " dtap-committers");
    fs.close();
    fs = null;
    store(Map.of("fs.s3a.user.agent.prefix", "nightly-report"), Map.of())
        .put("warehouse/rec", new byte[] {1});
    assertThat(server.last().header("user-agent"))
        .startsWith("nightly-report, " + hadoop + " dtap-committers");
  }

  @Test
  void theReferrerLeavesOutWhatS3asFilterDrops() throws Exception {
    List<String> filtered = List.of("pr", "ps", "t0");
    store(Map.of(), Map.of()).put("warehouse/rec", new byte[] {1});
    for (String key : filtered) {
      assertThat(server.last().header("referer")).containsPattern("[?&]" + key + "=");
    }
    fs.close();
    fs = null;
    store(Map.of("fs.s3a.audit.referrer.filter", String.join(",", filtered)), Map.of())
        .put("warehouse/rec", new byte[] {1});
    String referer = server.last().header("referer");
    assertThat(referer).contains("op=dtap_committer_put").contains("p1=warehouse");
    for (String key : filtered) {
      assertThat(referer).as("filtered out").doesNotContainPattern("[?&]" + key + "=");
    }
  }

  @Test
  void noReferrerWhereS3aSendsNone() throws Exception {
    for (Map<String, String> s3a :
        List.of(
            Map.of("fs.s3a.audit.referrer.enabled", "false"),
            Map.of("fs.s3a.audit.enabled", "false"))) {
      MultipartStore store = store(s3a, Map.of());
      store.put("warehouse/rec", new byte[] {1});
      assertThat(server.last().header("referer")).as(s3a.toString()).isNull();
      fs.close();
      fs = null;
    }
  }

  @Test
  void throttlingIsRetriedWithTheSameBytes() throws Exception {
    MultipartStore store = store(Map.of(), Map.of());
    server.then(ScriptedS3.Answer.error(503, "SlowDown"));
    byte[] b = random(5000);
    store.uploadPart(KEY, "u", 2, PartData.of(List.of(b), b.length));
    List<ScriptedS3.Request> r = server.requests();
    assertThat(r).hasSize(2);
    assertThat(r.get(0).body).isEqualTo(b);
    assertThat(r.get(1).body).isEqualTo(b);
  }

  @Test
  void lastingErrorsFailAfterS3asAttemptsNamingTheDtapPath() throws Exception {
    MultipartStore store = store(Map.of("fs.s3a.attempts.maximum", "2"), Map.of());
    server.then(
        ScriptedS3.Answer.error(500, "InternalError"),
        ScriptedS3.Answer.error(500, "InternalError"));
    assertThatThrownBy(() -> store.put("warehouse/x", new byte[1]))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("dtap://lake/x")
        .hasMessageContaining("InternalError")
        .hasMessageNotContaining("s3a://")
        .hasMessageNotContaining("bucket")
        .hasMessageNotContaining("127.0.0.1");
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void answersAreClassified() throws Exception {
    MultipartStore store = store(Map.of(), Map.of());
    List<UploadedPart> parts = List.of(new UploadedPart(1, "\"e\"", 1));
    server.then(
        new ScriptedS3.Answer(
            200, "<Error><Code>InternalError</Code><Message>late</Message></Error>"));
    assertThatThrownBy(() -> store.complete(KEY, "u", parts))
        .as("an error inside a 200 answer to complete")
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(NoSuchUploadException.class)
        .hasMessageContaining("InternalError");
    server.then(
        new ScriptedS3.Answer(
            200, "<Error><Code>NoSuchUpload</Code><Message>gone</Message></Error>"));
    assertThatThrownBy(() -> store.complete(KEY, "u", parts))
        .isInstanceOf(NoSuchUploadException.class);
    server.then(ScriptedS3.Answer.error(404, "NoSuchUpload"));
    assertThatThrownBy(() -> store.uploadPart(KEY, "u", 1, PartData.of(List.of(new byte[1]), 1)))
        .isInstanceOf(NoSuchUploadException.class);
    server.then(ScriptedS3.Answer.error(403, "AccessDenied"));
    assertThatThrownBy(() -> store.initiate(KEY))
        .isInstanceOf(java.nio.file.AccessDeniedException.class);
  }

  @Test
  void conditionalPutsLoseOn412And409() throws Exception {
    MultipartStore store = store(Map.of(), Map.of());
    assertThat(store.putIfAbsent("warehouse/r", new byte[1])).isTrue();
    assertThat(server.last().header("if-none-match")).isEqualTo("*");
    server.then(ScriptedS3.Answer.error(412, "PreconditionFailed"));
    assertThat(store.putIfAbsent("warehouse/r", new byte[1])).isFalse();
    server.then(ScriptedS3.Answer.error(409, "ConditionalRequestConflict"));
    assertThat(store.putIfAbsent("warehouse/r", new byte[1])).isFalse();
  }

  @Test
  void unsignedPartsCarryACrc32cTheStoreChecks() throws Exception {
    MultipartStore store = store(Map.of(), Map.of("fs.dtap.committer.signed-payload", "false"));
    String id = store.initiate(KEY);
    assertThat(server.last().header("x-amz-checksum-algorithm")).isEqualTo("CRC32C");
    byte[] b = random(40_000);
    UploadedPart p = store.uploadPart(KEY, id, 1, PartData.of(List.of(b), b.length));
    CRC32C jdk = new CRC32C();
    jdk.update(b);
    String expected =
        Base64.getEncoder()
            .encodeToString(ByteBuffer.allocate(4).putInt((int) jdk.getValue()).array());
    assertThat(server.last().header("x-amz-content-sha256")).isEqualTo("UNSIGNED-PAYLOAD");
    assertThat(server.last().header("x-amz-checksum-crc32c"))
        .as("the SDK's CRC32C, as the JDK's")
        .isEqualTo(expected);
    assertThat(server.last().header("authorization")).contains("x-amz-checksum-crc32c");
    assertThat(p.checksumAlgorithm()).isEqualTo("CRC32C");
    assertThat(p.checksum()).isEqualTo(expected);
    store.complete(KEY, id, List.of(p));
    assertThat(server.last().bodyText())
        .contains("<ChecksumCRC32C>" + expected + "</ChecksumCRC32C>");
  }

  @Test
  void s3asChecksumAlgorithmReachesPartsAndComplete() throws Exception {
    MultipartStore store = store(Map.of("fs.s3a.create.checksum.algorithm", "SHA256"), Map.of());
    String id = store.initiate(KEY);
    assertThat(server.last().header("x-amz-checksum-algorithm")).isEqualTo("SHA256");
    byte[] b = random(9_000);
    UploadedPart p = store.uploadPart(KEY, id, 1, PartData.of(List.of(b), b.length));
    String expected =
        Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(b));
    assertThat(server.last().header("x-amz-checksum-sha256")).isEqualTo(expected);
    assertThat(p.checksum()).isEqualTo(expected);
    store.complete(KEY, id, List.of(p));
    assertThat(server.last().bodyText())
        .contains("<ChecksumSHA256>" + expected + "</ChecksumSHA256>");
  }

  @Test
  void aSkewedClockIsCorrectedFromTheStoresDate() throws Exception {
    server.checkingClock();
    Configuration conf = OfflineS3a.conf(server.endpoint(), Map.of());
    fs = OfflineS3a.s3a(conf);
    try (S3aV2Access s3a = S3aV2Access.bind(fs)) {
      HttpPlan plan = (HttpPlan) HttpPlan.plan(s3a, dev.dtap.commit.store.StoreOptions.defaults());
      Clock behind = Clock.offset(Clock.systemUTC(), Duration.ofHours(-2));
      SignedHttp http = new SignedHttp(plan, s3a.credentials(), behind);
      SignedHttp.Answer a =
          http.send(
              SdkHttpMethod.PUT,
              plan.uri("k", null),
              new TreeMap<>(),
              SignedHttp.Body.of(new byte[1]),
              null,
              "put k");
      assertThat(a.status).as("the retry, signed on the store's clock, is accepted").isEqualTo(200);
      List<ScriptedS3.Request> r = server.requests();
      assertThat(r).hasSize(2);
      assertThat(http.skewMillis())
          .as("the learnt skew")
          .isGreaterThan(Duration.ofMinutes(100).toMillis());
    }
  }
}
