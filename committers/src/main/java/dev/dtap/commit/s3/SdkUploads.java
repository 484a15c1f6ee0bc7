package dev.dtap.commit.s3;

import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * {@link UploadRequests} through the AWS SDK's client: for {@code https} endpoints, AWS's own
 * endpoints, and {@code fs.dtap.committer.part.transport=sdk}. Thread-safe; does not own the
 * client.
 */
final class SdkUploads implements UploadRequests {
  private final S3Client s3;
  private final String bucket;
  private final boolean partChecksums;

  /**
   * @param s3 the client
   * @param bucket the bucket
   * @param partChecksums whether parts carry a CRC32C that the store verifies
   */
  SdkUploads(S3Client s3, String bucket, boolean partChecksums) {
    this.s3 = s3;
    this.bucket = bucket;
    this.partChecksums = partChecksums;
  }

  private String where(String key) {
    return S3Errors.where(bucket, key);
  }

  @Override
  public String initiate(String key) throws IOException {
    try {
      return s3.createMultipartUpload(
              b -> {
                b.bucket(bucket).key(key);
                if (partChecksums) {
                  b.checksumAlgorithm(ChecksumAlgorithm.CRC32_C);
                }
              })
          .uploadId();
    } catch (SdkException e) {
      throw S3Errors.translate("initiate upload to", where(key), e);
    }
  }

  @Override
  public UploadedPart uploadPart(String key, String uploadId, int partNumber, PartData data)
      throws IOException {
    ContentStreamProvider content = () -> {
      try {
        return data.open();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
    String crc32c = partChecksums ? S3MultipartStore.crc32c(data) : null;
    try {
      String etag =
          s3.uploadPart(
                  b ->
                      b.bucket(bucket)
                          .key(key)
                          .uploadId(uploadId)
                          .partNumber(partNumber)
                          .contentLength(data.length())
                          .checksumCRC32C(crc32c),
                  RequestBody.fromContentProvider(content, data.length(), "application/octet-stream"))
              .eTag();
      return new UploadedPart(partNumber, etag, data.length(), crc32c);
    } catch (SdkException e) {
      throw S3Errors.translate("upload part " + partNumber + " of upload " + uploadId + " to", where(key), e);
    }
  }

  @Override
  public String complete(String key, String uploadId, List<UploadedPart> parts) throws IOException {
    List<CompletedPart> done = new ArrayList<>(parts.size());
    for (UploadedPart p : parts) {
      done.add(
          CompletedPart.builder()
              .partNumber(p.number())
              .eTag(p.etag())
              .checksumCRC32C(p.crc32c())
              .build());
    }
    try {
      return s3.completeMultipartUpload(
              b ->
                  b.bucket(bucket)
                      .key(key)
                      .uploadId(uploadId)
                      .multipartUpload(CompletedMultipartUpload.builder().parts(done).build()))
          .eTag();
    } catch (SdkException e) {
      throw S3Errors.translate("complete upload " + uploadId + " to", where(key), e);
    }
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    try {
      s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(data));
    } catch (SdkException e) {
      throw S3Errors.translate("put", where(key), e);
    }
  }

  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    try {
      s3.putObject(b -> b.bucket(bucket).key(key).ifNoneMatch("*"), RequestBody.fromBytes(data));
      return true;
    } catch (SdkException e) {
      // 412: the object exists; 409: a concurrent conditional write to the key is in progress
      if (S3Errors.isStatus(e, 412) || S3Errors.isStatus(e, 409)) {
        return false;
      }
      throw S3Errors.translate("conditional put", where(key), e);
    }
  }

  @Override
  public void close() {
    // the client belongs to the store
  }
}
