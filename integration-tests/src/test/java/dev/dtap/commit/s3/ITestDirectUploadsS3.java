package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.store.NoSuchUploadException;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import dev.dtap.it.fixtures.MinioFixture;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * dtap's own upload requests on MinIO, with and without payload signatures: MinIO accepts their
 * signatures for keys that need encoding, a part's ETag is its MD5, the completed object holds the
 * same bytes, every request of a file shares one kept-alive connection, conditional puts refuse a
 * second writer, a part for an unknown upload is the store's NoSuchUpload, and a part whose bytes
 * change between hashing and sending is refused by the store (the payload hash, or the CRC32C of
 * an unsigned part, really covers the bytes sent).
 */
class ITestDirectUploadsS3 {
  @ParameterizedTest(name = "signed payload: {0}")
  @ValueSource(booleans = {true, false})
  void uploadsGoDirectlyAndCompleteIntoTheSameBytes(boolean signed) throws Exception {
    MinioFixture minio = MinioFixture.get();
    String bucket = minio.createBucket("direct");
    Configuration conf = minio.configureS3a(new Configuration());
    S3Settings settings = S3Settings.read(bucket, conf, "direct");
    assertThat(DirectUploads.serves(settings)).as("the fixture's endpoint is plain http").isTrue();
    ConnectionPool pool = new ConnectionPool(8, 20_000, 200_000, 200_000);
    DirectUploads uploads =
        new DirectUploads(settings, new DirectTransport(pool, DirectTransport.CONTINUE_WAIT_MILLIS), signed);
    try (S3MultipartStore store =
        new S3MultipartStore(S3StoreFactory.client(settings, signed), uploads, bucket, true)) {
      byte[] first = new byte[(5 << 20) + 17];
      byte[] second = new byte[300_001];
      new Random(1).nextBytes(first);
      new Random(2).nextBytes(second);
      String key = "out/dir with space/ü+%&=;" + signed + ".txt";
      String id = store.initiate(key);
      UploadedPart p1 = store.uploadPart(key, id, 1, PartData.of(List.of(first), first.length));
      UploadedPart p2 =
          store.uploadPart(key, id, 2, PartData.of(List.of(new byte[0], second, new byte[3]), second.length));
      assertThat(pool.idleCount()).as("initiate and both parts on one kept-alive connection").isEqualTo(1);
      assertThat(p1.etag()).isEqualTo("\"" + hex("MD5", first) + "\"");
      assertThat(p2.etag()).isEqualTo("\"" + hex("MD5", second) + "\"");
      assertThat(p1.crc32c()).isEqualTo(signed ? null : S3MultipartStore.crc32c(PartData.of(List.of(first), first.length)));
      assertThat(store.listParts(key, id).orElseThrow()).containsExactly(p1, p2);
      String etag = store.complete(key, id, List.of(p1, p2));
      assertThat(etag).endsWith("-2\"");

      byte[] back = minio.client().getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
      byte[] expected = new byte[first.length + second.length];
      System.arraycopy(first, 0, expected, 0, first.length);
      System.arraycopy(second, 0, expected, first.length, second.length);
      assertThat(back).isEqualTo(expected);
      assertThat(store.listParts(key, id)).as("a completed upload is gone").isEmpty();

      String record = "out/_records/task-" + signed + ".json";
      assertThat(store.putIfAbsent(record, "{\"a\":1}".getBytes())).isTrue();
      assertThat(store.putIfAbsent(record, "{\"a\":2}".getBytes())).as("the second writer loses").isFalse();
      store.put(record, "{\"a\":3}".getBytes());
      assertThat(store.get(record)).hasValueSatisfying(b -> assertThat(new String(b)).isEqualTo("{\"a\":3}"));
      assertThat(pool.idleCount()).isEqualTo(1);

      assertThatThrownBy(() -> store.uploadPart(key, "no-such-upload", 1, PartData.of(List.of(second), second.length)))
          .isInstanceOf(NoSuchUploadException.class)
          .hasMessageContaining("NoSuchUpload")
          .hasMessageContaining("s3a://" + bucket + "/" + key);
      assertThatThrownBy(() -> store.complete(key, "no-such-upload", List.of(p1)))
          .isInstanceOf(NoSuchUploadException.class);

      String other = "out/changed-" + signed;
      String otherId = store.initiate(other);
      assertThatThrownBy(() -> store.uploadPart(other, otherId, 1, changesAfterFirstRead(second)))
          .as("bytes that are not the ones hashed are refused")
          .isInstanceOf(IOException.class)
          .hasMessageContaining("(HTTP 400)");
      assertThat(store.listParts(other, otherId).orElseThrow()).as("nothing was stored").isEmpty();
      assertThat(store.abort(other, otherId)).isTrue();
    }
  }

  /** A part that reads as {@code data} once, then with one bit flipped: corruption in memory. */
  private static PartData changesAfterFirstRead(byte[] data) {
    AtomicInteger reads = new AtomicInteger();
    return new PartData() {
      @Override
      public long length() {
        return data.length;
      }

      @Override
      public InputStream open() {
        byte[] b = data.clone();
        if (reads.getAndIncrement() > 0) {
          b[1000] ^= 1;
        }
        return new ByteArrayInputStream(b);
      }
    };
  }

  private static String hex(String algorithm, byte[] data) throws Exception {
    StringBuilder hex = new StringBuilder(64);
    for (byte b : MessageDigest.getInstance(algorithm).digest(data)) {
      hex.append(String.format("%02x", b));
    }
    return hex.toString();
  }
}
