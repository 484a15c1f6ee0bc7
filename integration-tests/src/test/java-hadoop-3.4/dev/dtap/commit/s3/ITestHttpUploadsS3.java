package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.CommitTesting;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.NoSuchUploadException;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import dev.dtap.it.fixtures.MinioFixture;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * dtap's own HTTP requests on MinIO, with and without payload signatures: MinIO accepts the SDK
 * signer's signatures for keys that need encoding, a part's ETag is its MD5, the completed object
 * holds the same bytes, conditional puts refuse a second writer, a part for an unknown upload is
 * the store's NoSuchUpload (named by its dtap path), and a part whose bytes change between hashing
 * and sending is refused by the store: the signed payload hash, or the CRC32C of an unsigned part,
 * really covers the bytes sent.
 */
class ITestHttpUploadsS3 {
  @ParameterizedTest(name = "signed payload: {0}")
  @ValueSource(booleans = {true, false})
  void uploadsCompleteIntoTheSameBytesAndCorruptionIsRefused(boolean signed) throws Exception {
    MinioFixture minio = MinioFixture.get();
    String bucket = minio.createBucket("http-uploads");
    Configuration conf = minio.addTap(new Configuration(), "up", bucket, "");
    conf.set("fs.dtap.committer.transport", "http");
    conf.setBoolean("fs.dtap.committer.signed-payload", signed);
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    Path root = new Path("dtap://up/");
    try (FileSystem fs = root.getFileSystem(conf)) {
      MultipartStore store = CommitTesting.store(root, conf);
      assertThat(((S3aV2Store) store).uploads()).isInstanceOf(HttpUploads.class);
      byte[] first = new byte[(5 << 20) + 17];
      byte[] second = new byte[300_001];
      new Random(1).nextBytes(first);
      new Random(2).nextBytes(second);
      String key = "out/dir with space/ü+%&=;" + signed + ".txt";
      String id = store.initiate(key);
      UploadedPart p1 = store.uploadPart(key, id, 1, PartData.of(List.of(first), first.length));
      UploadedPart p2 =
          store.uploadPart(
              key, id, 2, PartData.of(List.of(new byte[0], second, new byte[3]), second.length));
      assertThat(p1.etag()).isEqualTo("\"" + hex("MD5", first) + "\"");
      assertThat(p2.etag()).isEqualTo("\"" + hex("MD5", second) + "\"");
      assertThat(p1.checksum() == null)
          .as("a checksum only with unsigned payloads")
          .isEqualTo(signed);
      assertThat(store.listParts(key, id).orElseThrow()).containsExactly(p1, p2);
      assertThat(store.complete(key, id, List.of(p1, p2))).endsWith("-2\"");

      byte[] back = minio.client().getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
      byte[] expected = new byte[first.length + second.length];
      System.arraycopy(first, 0, expected, 0, first.length);
      System.arraycopy(second, 0, expected, first.length, second.length);
      assertThat(back).isEqualTo(expected);
      assertThat(store.listParts(key, id)).as("a completed upload is gone").isEmpty();

      String record = "out/_records/task-" + signed + ".json";
      assertThat(store.putIfAbsent(record, "{\"a\":1}".getBytes())).isTrue();
      assertThat(store.putIfAbsent(record, "{\"a\":2}".getBytes()))
          .as("the second writer loses")
          .isFalse();
      store.put(record, "{\"a\":3}".getBytes());
      assertThat(store.get(record))
          .hasValueSatisfying(b -> assertThat(new String(b)).isEqualTo("{\"a\":3}"));

      assertThatThrownBy(
              () ->
                  store.uploadPart(
                      key, "no-such-upload", 1, PartData.of(List.of(second), second.length)))
          .isInstanceOf(NoSuchUploadException.class)
          .hasMessageContaining("NoSuchUpload")
          .hasMessageContaining("dtap://up/out/dir with space/")
          .hasMessageNotContaining("s3a://")
          .hasMessageNotContaining(bucket);
      assertThatThrownBy(() -> store.complete(key, "no-such-upload", List.of(p1)))
          .isInstanceOf(NoSuchUploadException.class);

      String other = "out/changed-" + signed;
      String otherId = store.initiate(other);
      assertThatThrownBy(() -> store.uploadPart(other, otherId, 1, sentWithABitFlipped(second)))
          .as("bytes that are not the ones hashed are refused")
          .isInstanceOf(IOException.class)
          .hasMessageContaining("(HTTP 400)");
      assertThat(store.listParts(other, otherId).orElseThrow()).as("nothing was stored").isEmpty();
      assertThat(store.abort(other, otherId)).isTrue();
    }
  }

  /**
   * A part that reads as {@code data} when hashed or checksummed, and goes on the wire with one bit
   * flipped: corruption between the two.
   */
  private static PartData sentWithABitFlipped(byte[] data) {
    PartData original = PartData.of(List.of(data), data.length);
    return new PartData() {
      @Override
      public long length() {
        return data.length;
      }

      @Override
      public InputStream open() throws IOException {
        return original.open();
      }

      @Override
      public List<ByteBuffer> buffers() {
        byte[] b = data.clone();
        b[1000] ^= 1;
        return List.of(ByteBuffer.wrap(b));
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
