package dev.dtap.commit.s3;

import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.ObjectInfo;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.StoreStatistics;
import dev.dtap.commit.store.StoreStatistics.Op;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.RemoteIterator;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ListPartsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link MultipartStore} over one S3 bucket: the requests made for every file through {@link
 * UploadRequests} (dtap's own over plain http, else the SDK's), everything else through the AWS
 * SDK v2. Thread-safe; owns its client.
 */
final class S3MultipartStore implements MultipartStore {
  private static final int DELETE_BATCH = 1000;

  private final S3Client s3;
  private final UploadRequests uploads;
  private final String bucket;
  private final boolean conditionalPut;
  private final StoreStatistics stats = new StoreStatistics();

  /**
   * A store whose every request goes through the SDK.
   *
   * @param s3 the client, owned from now on
   * @param bucket the bucket
   * @param conditionalPut whether the store honours {@code If-None-Match: *}
   * @param partChecksums whether uploads carry a CRC32C per part that the store verifies (with
   *     unsigned payloads, the only check of the bytes besides TCP's)
   */
  S3MultipartStore(S3Client s3, String bucket, boolean conditionalPut, boolean partChecksums) {
    this(s3, new SdkUploads(s3, bucket, partChecksums), bucket, conditionalPut);
  }

  /**
   * @param s3 the client, for everything but the upload requests; owned from now on
   * @param uploads initiate, part, complete and puts; owned from now on
   * @param bucket the bucket
   * @param conditionalPut whether the store honours {@code If-None-Match: *}
   */
  S3MultipartStore(S3Client s3, UploadRequests uploads, String bucket, boolean conditionalPut) {
    this.s3 = s3;
    this.uploads = uploads;
    this.bucket = bucket;
    this.conditionalPut = conditionalPut;
  }

  /** @return how the upload requests travel, for tests */
  UploadRequests uploads() {
    return uploads;
  }

  private String where(String key) {
    return S3Errors.where(bucket, key);
  }

  @Override
  public String describe() {
    return "s3a://" + bucket;
  }

  @Override
  public String initiate(String key) throws IOException {
    stats.request(Op.INITIATE);
    return uploads.initiate(key);
  }

  @Override
  public UploadedPart uploadPart(String key, String uploadId, int partNumber, PartData data)
      throws IOException {
    stats.request(Op.UPLOAD_PART);
    UploadedPart part = uploads.uploadPart(key, uploadId, partNumber, data);
    stats.uploaded(data.length());
    return part;
  }

  /** The part's CRC32C as S3 headers carry it: base64 of its four big-endian bytes. */
  static String crc32c(PartData data) throws IOException {
    CRC32C crc = new CRC32C();
    data.update(crc);
    return Base64.getEncoder().encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }

  @Override
  public String complete(String key, String uploadId, List<UploadedPart> parts) throws IOException {
    stats.request(Op.COMPLETE);
    return uploads.complete(key, uploadId, parts);
  }

  @Override
  public boolean abort(String key, String uploadId) throws IOException {
    stats.request(Op.ABORT);
    try {
      s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
      return true;
    } catch (SdkException e) {
      if (S3Errors.isNoSuchUpload(e)) {
        return false;
      }
      throw S3Errors.translate("abort upload " + uploadId + " to", where(key), e);
    }
  }

  @Override
  public Optional<List<UploadedPart>> listParts(String key, String uploadId) throws IOException {
    List<UploadedPart> parts = new ArrayList<>();
    Integer marker = null;
    try {
      while (true) {
        stats.request(Op.LIST_PARTS);
        Integer m = marker;
        ListPartsResponse r =
            s3.listParts(
                b -> {
                  b.bucket(bucket).key(key).uploadId(uploadId);
                  if (m != null) {
                    b.partNumberMarker(m);
                  }
                });
        for (Part p : r.parts()) {
          parts.add(new UploadedPart(p.partNumber(), p.eTag(), p.size(), p.checksumCRC32C()));
        }
        if (!Boolean.TRUE.equals(r.isTruncated()) || r.nextPartNumberMarker() == null) {
          return Optional.of(parts);
        }
        marker = r.nextPartNumberMarker();
      }
    } catch (SdkException e) {
      if (S3Errors.isNoSuchUpload(e)) {
        return Optional.empty();
      }
      throw S3Errors.translate("list parts of upload " + uploadId + " to", where(key), e);
    }
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    stats.request(Op.PUT);
    uploads.put(key, data);
    stats.uploaded(data.length);
  }

  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    if (!conditionalPut) {
      if (head(key).isPresent()) {
        return false;
      }
      put(key, data);
      return true;
    }
    stats.request(Op.PUT);
    boolean written = uploads.putIfAbsent(key, data);
    if (written) {
      stats.uploaded(data.length);
    }
    return written;
  }

  @Override
  public boolean supportsConditionalPut() {
    return conditionalPut;
  }

  @Override
  public Optional<byte[]> get(String key) throws IOException {
    stats.request(Op.GET);
    try {
      ResponseBytes<GetObjectResponse> r = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key));
      return Optional.of(r.asByteArrayUnsafe());
    } catch (SdkException e) {
      if (S3Errors.isMissing(e)) {
        return Optional.empty();
      }
      throw S3Errors.translate("get", where(key), e);
    }
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    stats.request(Op.HEAD);
    try {
      HeadObjectResponse r = s3.headObject(b -> b.bucket(bucket).key(key));
      long mtime = r.lastModified() == null ? 0 : r.lastModified().toEpochMilli();
      return Optional.of(new ObjectInfo(key, r.contentLength(), r.eTag(), mtime));
    } catch (SdkException e) {
      if (S3Errors.isMissing(e)) {
        return Optional.empty();
      }
      throw S3Errors.translate("head", where(key), e);
    }
  }

  @Override
  public RemoteIterator<ObjectInfo> list(String prefix) throws IOException {
    return new ListingPages<>(s3, bucket, prefix, false, stats) {
      @Override
      Iterator<ObjectInfo> items(ListObjectsV2Response page) {
        List<ObjectInfo> out = new ArrayList<>(page.contents().size());
        for (S3Object o : page.contents()) {
          long mtime = o.lastModified() == null ? 0 : o.lastModified().toEpochMilli();
          out.add(new ObjectInfo(o.key(), o.size(), o.eTag(), mtime));
        }
        return out.iterator();
      }
    };
  }

  @Override
  public RemoteIterator<String> listChildPrefixes(String prefix) throws IOException {
    return new ListingPages<>(s3, bucket, prefix, true, stats) {
      @Override
      Iterator<String> items(ListObjectsV2Response page) {
        List<String> out = new ArrayList<>(page.commonPrefixes().size());
        for (CommonPrefix p : page.commonPrefixes()) {
          out.add(p.prefix());
        }
        return out.iterator();
      }
    };
  }

  @Override
  public void delete(Collection<String> keys) throws IOException {
    List<ObjectIdentifier> batch = new ArrayList<>(Math.min(keys.size(), DELETE_BATCH));
    for (String k : keys) {
      batch.add(ObjectIdentifier.builder().key(k).build());
      if (batch.size() == DELETE_BATCH) {
        deleteBatch(batch);
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      deleteBatch(batch);
    }
  }

  private void deleteBatch(List<ObjectIdentifier> batch) throws IOException {
    stats.request(Op.DELETE);
    List<ObjectIdentifier> ids = new ArrayList<>(batch);
    DeleteObjectsResponse r;
    try {
      r = s3.deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(ids).quiet(true)));
    } catch (SdkException e) {
      throw S3Errors.translate("delete " + ids.size() + " objects from", describe(), e);
    }
    List<String> failed = new ArrayList<>();
    for (S3Error err : r.errors()) {
      if (!"NoSuchKey".equals(err.code())) {
        failed.add(where(err.key()) + " (" + err.code() + ")");
      }
    }
    if (!failed.isEmpty()) {
      throw new IOException(
          "Could not delete "
              + failed.size()
              + " objects, including "
              + failed.subList(0, Math.min(5, failed.size())));
    }
  }

  @Override
  public long minimumPartSize() {
    return 5L << 20;
  }

  @Override
  public StoreStatistics statistics() {
    return stats;
  }

  @Override
  public void close() {
    try {
      uploads.close();
    } finally {
      s3.close();
    }
  }

  @Override
  public String toString() {
    return "S3MultipartStore{" + describe() + "}";
  }
}
