package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.store.NoSuchUploadException;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * dtap's own upload requests against a scripted loopback store: what goes on the wire (payload
 * hashes, signature, no secret), which answers are retried and how often, errors inside a 200
 * answer to complete, and conditional puts that lose.
 */
class ITestDirectUploads {
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  /** A store that answers each request with {@code answer.apply(head, body)}, keep-alive. */
  private ScriptedHttpServer store(BiFunction<String, byte[], String> answer) throws IOException {
    ScriptedHttpServer s =
        new ScriptedHttpServer(
            x -> {
              String head;
              while ((head = x.readHead()) != null) {
                if ("100-continue".equalsIgnoreCase(ScriptedHttpServer.header(head, "expect"))) {
                  x.send("HTTP/1.1 100 Continue\r\n\r\n");
                }
                x.send(answer.apply(head, x.readBody(head)));
              }
            });
    open.add(s);
    return s;
  }

  private DirectUploads uploads(ScriptedHttpServer s, boolean signed) throws IOException {
    Configuration conf = new Configuration(false);
    conf.set("fs.s3a.endpoint", "http://127.0.0.1:" + s.port());
    conf.set("fs.s3a.path.style.access", "true");
    conf.set("fs.s3a.access.key", "AKIDEXAMPLE");
    conf.set("fs.s3a.secret.key", SECRET);
    DirectUploads u =
        new DirectUploads(
            S3Settings.read("bucket", conf, "lake"),
            new DirectTransport(new ConnectionPool(2, 2000, 5000, 2000), 200),
            signed);
    open.add(u);
    return u;
  }

  private static String answer(int status, String xml, String... headers) {
    StringBuilder sb = new StringBuilder("HTTP/1.1 " + status + " X\r\n");
    for (String h : headers) {
      sb.append(h).append("\r\n");
    }
    return sb.append("Content-Length: ").append(xml.length()).append("\r\n\r\n").append(xml).toString();
  }

  private static String requestLine(String head) {
    return head.substring(0, head.indexOf("\r\n"));
  }

  private static String storeOk(String head, byte[] body) {
    String line = requestLine(head);
    if (line.contains("?uploads")) {
      return answer(200, "<InitiateMultipartUploadResult><Bucket>bucket</Bucket><UploadId>u&amp;1</UploadId></InitiateMultipartUploadResult>");
    }
    if (line.startsWith("POST")) {
      return answer(200, "<CompleteMultipartUploadResult><ETag>&quot;abc-1&quot;</ETag></CompleteMultipartUploadResult>");
    }
    return answer(200, "", "ETag: \"e" + body.length + "\"");
  }

  @Test
  void theWireCarriesTheHashOfTheBytesSentAndASignatureButNoSecret() throws Exception {
    ScriptedHttpServer s = store(ITestDirectUploads::storeOk);
    DirectUploads u = uploads(s, true);
    byte[] data = new byte[70_000];
    new Random(1).nextBytes(data);
    String id = u.initiate("dir/a b.txt");
    assertThat(id).isEqualTo("u&1");
    UploadedPart p = u.uploadPart("dir/a b.txt", id, 1, PartData.of(List.of(data), data.length));
    assertThat(p.etag()).isEqualTo("\"e70000\"");
    assertThat(u.complete("dir/a b.txt", id, List.of(p))).isEqualTo("\"abc-1\"");
    u.put("dir/record", new byte[] {1, 2});

    assertThat(s.heads).hasSize(4);
    assertThat(requestLine(s.heads.get(0))).isEqualTo("POST /bucket/dir/a%20b.txt?uploads= HTTP/1.1");
    assertThat(requestLine(s.heads.get(1))).isEqualTo("PUT /bucket/dir/a%20b.txt?partNumber=1&uploadId=u%261 HTTP/1.1");
    assertThat(requestLine(s.heads.get(2))).isEqualTo("POST /bucket/dir/a%20b.txt?uploadId=u%261 HTTP/1.1");
    assertThat(new String(s.bodies.get(2), StandardCharsets.UTF_8))
        .isEqualTo("<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Part>"
            + "<PartNumber>1</PartNumber><ETag>&quot;e70000&quot;</ETag></Part></CompleteMultipartUpload>");
    for (int i = 0; i < 4; i++) {
      String head = s.heads.get(i);
      assertThat(ScriptedHttpServer.header(head, "x-amz-content-sha256"))
          .as("payload hash of request %d", i)
          .isEqualTo(SigV4.sha256Hex(s.bodies.get(i)));
      assertThat(ScriptedHttpServer.header(head, "authorization"))
          .startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
          .contains("/us-east-1/s3/aws4_request")
          .contains("SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date");
      assertThat(head).doesNotContain(SECRET);
    }
    assertThat(s.bodies.get(1)).isEqualTo(data);
    assertThat(s.connections()).isEqualTo(1);
  }

  @Test
  void unsignedPartsCarryTheirCrc32cAndEverythingElseKeepsItsHash() throws Exception {
    ScriptedHttpServer s = store(ITestDirectUploads::storeOk);
    DirectUploads u = uploads(s, false);
    byte[] data = "part bytes".getBytes(StandardCharsets.UTF_8);
    PartData part = PartData.of(List.of(data), data.length);
    String id = u.initiate("k");
    UploadedPart p = u.uploadPart("k", id, 1, part);
    u.complete("k", id, List.of(p));
    assertThat(ScriptedHttpServer.header(s.heads.get(0), "x-amz-checksum-algorithm")).isEqualTo("CRC32C");
    assertThat(ScriptedHttpServer.header(s.heads.get(1), "x-amz-content-sha256")).isEqualTo("UNSIGNED-PAYLOAD");
    assertThat(ScriptedHttpServer.header(s.heads.get(1), "x-amz-checksum-crc32c"))
        .isEqualTo(S3MultipartStore.crc32c(part))
        .isEqualTo(p.crc32c());
    assertThat(new String(s.bodies.get(2), StandardCharsets.UTF_8)).contains("<ChecksumCRC32C>" + p.crc32c() + "</ChecksumCRC32C>");
    assertThat(ScriptedHttpServer.header(s.heads.get(2), "x-amz-content-sha256")).isEqualTo(SigV4.sha256Hex(s.bodies.get(2)));
  }

  @Test
  void throttlingIsRetriedWithTheSameBytes() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    ScriptedHttpServer s =
        store(
            (head, body) ->
                calls.incrementAndGet() < DirectUploads.ATTEMPTS
                    ? answer(503, "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>")
                    : storeOk(head, body));
    byte[] data = new byte[5000];
    new Random(2).nextBytes(data);
    UploadedPart p = uploads(s, true).uploadPart("k", "u", 3, PartData.of(List.of(data), data.length));
    assertThat(p.etag()).isEqualTo("\"e5000\"");
    assertThat(s.bodies).hasSize(DirectUploads.ATTEMPTS).allSatisfy(b -> assertThat(b).isEqualTo(data));
  }

  @Test
  void aServerErrorThatLastsIsReportedAfterEveryAttempt() throws Exception {
    ScriptedHttpServer s = store((head, body) -> answer(500, "<Error><Code>InternalError</Code><Message>disk</Message></Error>"));
    assertThatThrownBy(() -> uploads(s, true).initiate("dir/k"))
        .isInstanceOf(IOException.class)
        .hasMessage("initiate upload to s3a://bucket/dir/k: InternalError (HTTP 500): disk");
    assertThat(s.heads).hasSize(DirectUploads.ATTEMPTS);
  }

  @Test
  void errorsInsideA200CompleteAreErrorsAndOnlyTransientOnesAreRetried() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    ScriptedHttpServer s =
        store(
            (head, body) ->
                calls.incrementAndGet() == 1
                    ? answer(200, "<Error><Code>InternalError</Code><Message>try again</Message></Error>")
                    : answer(200, "<Error><Code>NoSuchUpload</Code><Message>gone</Message></Error>"));
    UploadedPart p = new UploadedPart(1, "\"e\"", 1, null);
    assertThatThrownBy(() -> uploads(s, true).complete("k", "u", List.of(p)))
        .isInstanceOf(NoSuchUploadException.class)
        .hasMessage("complete upload u to s3a://bucket/k: NoSuchUpload (HTTP 200): gone");
    assertThat(s.heads).as("InternalError retried once, NoSuchUpload not").hasSize(2);
  }

  @Test
  void aConditionalPutThatLosesIsFalseAndAnotherRefusalAnError() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    ScriptedHttpServer s =
        store(
            (head, body) -> {
              int n = calls.incrementAndGet();
              if (n == 1) {
                return answer(412, "<Error><Code>PreconditionFailed</Code></Error>");
              }
              if (n == 2) {
                return answer(409, "<Error><Code>ConditionalRequestConflict</Code></Error>");
              }
              return answer(403, "<Error><Code>AccessDenied</Code><Message>no</Message></Error>");
            });
    DirectUploads u = uploads(s, true);
    assertThat(u.putIfAbsent("r", new byte[1])).isFalse();
    assertThat(u.putIfAbsent("r", new byte[1])).isFalse();
    assertThat(ScriptedHttpServer.header(s.heads.get(0), "if-none-match")).isEqualTo("*");
    assertThatThrownBy(() -> u.putIfAbsent("r", new byte[1]))
        .isInstanceOf(java.nio.file.AccessDeniedException.class)
        .hasMessageContaining("s3a://bucket/r")
        .hasMessageContaining("AccessDenied (HTTP 403): no");
  }

  @Test
  void anAnswerWithoutAnUploadIdIsAnErrorNamingThePath() throws Exception {
    ScriptedHttpServer s = store((head, body) -> answer(200, "<InitiateMultipartUploadResult/>"));
    assertThatThrownBy(() -> uploads(s, true).initiate("k"))
        .isInstanceOf(IOException.class)
        .hasMessage("initiate upload to s3a://bucket/k: the store's answer holds no UploadId");
  }
}
