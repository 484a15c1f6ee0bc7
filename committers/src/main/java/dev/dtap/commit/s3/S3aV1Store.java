package dev.dtap.commit.s3;

import com.amazonaws.AmazonClientException;
import com.amazonaws.AmazonWebServiceClient;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.model.DeleteObjectsRequest.KeyVersion;
import com.amazonaws.services.s3.model.ListObjectsV2Result;
import com.amazonaws.services.s3.model.MultiObjectDeleteException;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PartETag;
import com.amazonaws.services.s3.model.PutObjectRequest;
import com.amazonaws.services.s3.model.S3Object;
import com.amazonaws.services.s3.model.S3ObjectSummary;
import dev.dtap.commit.store.InitiatedUpload;
import dev.dtap.commit.store.KeyNames;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.ObjectInfo;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.StoreStatistics;
import dev.dtap.commit.store.StoreStatistics.Op;
import dev.dtap.commit.store.UploadedPart;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * {@link MultipartStore} over a tap's S3A bucket on Hadoop 3.3: every request built by S3A's
 * request factory and sent by S3A's own client (AWS SDK v1), see {@link S3aV1Access}. Messages name
 * dtap paths. Thread-safe; S3A owns the client.
 */
final class S3aV1Store implements MultipartStore {
  private static final int DELETE_BATCH = 1000;
  private static final int LIST_PAGE = 1000;

  private final S3aV1Access s3a;
  private final AmazonS3 s3;
  private final KeyNames names;
  private final boolean conditionalPut;
  private final StoreStatistics stats = new StoreStatistics();
  private final StoreRetries retries;
  private final S3aSpans spans;
  private final V1PendingUploads pending;

  S3aV1Store(S3aV1Access s3a, KeyNames names, boolean conditionalPut) {
    this.s3a = s3a;
    this.s3 = s3a.client();
    this.names = names;
    this.conditionalPut = conditionalPut;
    this.spans = s3a.spans();
    this.retries = new StoreRetries(s3a.conf(), spans);
    this.pending = new V1PendingUploads(s3a, names, stats);
  }

  private String where(String key) {
    return names.display(key);
  }

  @Override
  public String describe() {
    return names.root();
  }

  @Override
  public InitiatedUpload initiate(String key) throws IOException {
    stats.request(Op.INITIATE);
    V1SendCount sends =
        new V1SendCount(
            s3 instanceof AmazonWebServiceClient
                ? ((AmazonWebServiceClient) s3).getRequestMetricsCollector()
                : null);
    try {
      String id =
          spans
              .run(
                  Op.INITIATE,
                  key,
                  () ->
                      s3.initiateMultipartUpload(
                          s3a.initiate(key).withRequestMetricCollector(sends)))
              .getUploadId();
      return new InitiatedUpload(id, sends.resent());
    } catch (AmazonClientException e) {
      throw V1Errors.translate("initiate upload to", where(key), e);
    }
  }

  @Override
  public List<String> pendingUploads(String key) throws IOException {
    return retries.idempotent(Op.LIST_UPLOADS, key, where(key), () -> pending.uploads(key));
  }

  @Override
  public UploadedPart uploadPart(String key, String uploadId, int partNumber, PartData data)
      throws IOException {
    stats.request(Op.UPLOAD_PART);
    // the stream supports mark and reset over the whole part, so the SDK can retry it
    try (InputStream in = data.open()) {
      String etag =
          spans
              .run(
                  Op.UPLOAD_PART,
                  key,
                  () -> s3.uploadPart(s3a.part(key, uploadId, partNumber, data.length(), in)))
              .getETag();
      stats.uploaded(data.length());
      return new UploadedPart(partNumber, etag, data.length());
    } catch (AmazonClientException e) {
      throw V1Errors.translate(
          "upload part " + partNumber + " of upload " + uploadId + " to",
          where(key),
          S3Errors.Subject.UPLOAD,
          e);
    }
  }

  @Override
  public String complete(String key, String uploadId, List<UploadedPart> parts) throws IOException {
    stats.request(Op.COMPLETE);
    List<PartETag> etags = new ArrayList<>(parts.size());
    for (UploadedPart p : parts) {
      etags.add(new PartETag(p.number(), p.etag()));
    }
    try {
      return spans
          .run(
              Op.COMPLETE,
              key,
              () -> s3.completeMultipartUpload(s3a.complete(key, uploadId, etags)))
          .getETag();
    } catch (AmazonClientException e) {
      throw V1Errors.translate(
          "complete upload " + uploadId + " to", where(key), S3Errors.Subject.COMPLETE, e);
    }
  }

  @Override
  public boolean abort(String key, String uploadId) throws IOException {
    stats.request(Op.ABORT);
    try {
      spans.run(
          Op.ABORT,
          key,
          () -> {
            s3.abortMultipartUpload(s3a.abort(key, uploadId));
            return null;
          });
      return true;
    } catch (AmazonClientException e) {
      if (V1Errors.noSuchUpload(e)) {
        return false;
      }
      throw V1Errors.translate(
          "abort upload " + uploadId + " to", where(key), S3Errors.Subject.UPLOAD, e);
    }
  }

  @Override
  public Optional<List<UploadedPart>> listParts(String key, String uploadId) throws IOException {
    return retries.idempotent(Op.LIST_PARTS, key, where(key), () -> pending.parts(key, uploadId));
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    stats.request(Op.PUT);
    try {
      spans.run(
          Op.PUT,
          key,
          () -> s3.putObject(s3a.put(key, new ByteArrayInputStream(data), data.length)));
      stats.uploaded(data.length);
    } catch (AmazonClientException e) {
      throw V1Errors.translate("put", where(key), e);
    }
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
    try {
      spans.run(
          Op.PUT,
          key,
          () -> {
            // S3A's SDK v1 auditing binds a request to the span active when it is built
            PutObjectRequest r = s3a.put(key, new ByteArrayInputStream(data), data.length);
            r.putCustomRequestHeader("If-None-Match", "*");
            return s3.putObject(r);
          });
      stats.uploaded(data.length);
      return true;
    } catch (AmazonClientException e) {
      // 412: the object exists; 409: a concurrent conditional write to the key is in progress
      if (V1Errors.status(e, 412) || V1Errors.status(e, 409)) {
        return false;
      }
      throw V1Errors.translate("conditional put", where(key), e);
    }
  }

  @Override
  public boolean supportsConditionalPut() {
    return conditionalPut;
  }

  @Override
  public Optional<byte[]> get(String key) throws IOException {
    return retries.idempotent(Op.GET, key, where(key), () -> getOnce(key));
  }

  private Optional<byte[]> getOnce(String key) throws IOException {
    stats.request(Op.GET);
    try (S3Object o = s3.getObject(s3a.get(key))) {
      try (InputStream in = o.getObjectContent()) {
        return Optional.of(in.readAllBytes());
      }
    } catch (AmazonClientException e) {
      if (V1Errors.missing(e)) {
        return Optional.empty();
      }
      throw V1Errors.translate("get", where(key), e);
    }
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    return retries.idempotent(Op.HEAD, key, where(key), () -> headOnce(key));
  }

  private Optional<ObjectInfo> headOnce(String key) throws IOException {
    stats.request(Op.HEAD);
    try {
      ObjectMetadata md = s3.getObjectMetadata(s3a.head(key));
      long mtime = md.getLastModified() == null ? 0 : md.getLastModified().getTime();
      return Optional.of(new ObjectInfo(key, md.getContentLength(), md.getETag(), mtime));
    } catch (AmazonClientException e) {
      if (V1Errors.missing(e)) {
        return Optional.empty();
      }
      throw V1Errors.translate("head", where(key), e);
    }
  }

  @Override
  public RemoteIterator<ObjectInfo> list(String prefix) throws IOException {
    return new ListingPages<ListObjectsV2Result, ObjectInfo>(
        page(prefix, null), where(prefix), stats) {
      @Override
      Iterator<ObjectInfo> items(ListObjectsV2Result page) {
        List<ObjectInfo> out = new ArrayList<>(page.getObjectSummaries().size());
        for (S3ObjectSummary o : page.getObjectSummaries()) {
          long mtime = o.getLastModified() == null ? 0 : o.getLastModified().getTime();
          out.add(new ObjectInfo(o.getKey(), o.getSize(), o.getETag(), mtime));
        }
        return out.iterator();
      }

      @Override
      String next(ListObjectsV2Result page) {
        return page.isTruncated() ? page.getNextContinuationToken() : null;
      }
    };
  }

  @Override
  public RemoteIterator<String> listChildPrefixes(String prefix) throws IOException {
    return new ListingPages<ListObjectsV2Result, String>(page(prefix, "/"), where(prefix), stats) {
      @Override
      Iterator<String> items(ListObjectsV2Result page) {
        return new ArrayList<>(page.getCommonPrefixes()).iterator();
      }

      @Override
      String next(ListObjectsV2Result page) {
        return page.isTruncated() ? page.getNextContinuationToken() : null;
      }
    };
  }

  private ListingPages.Fetch<ListObjectsV2Result> page(String prefix, String delimiter) {
    return token ->
        retries.idempotent(
            Op.LIST,
            prefix,
            where(prefix),
            () -> {
              try {
                com.amazonaws.services.s3.model.ListObjectsV2Request r =
                    s3a.list(prefix, delimiter, LIST_PAGE);
                r.setContinuationToken(token);
                return s3.listObjectsV2(r);
              } catch (AmazonClientException e) {
                throw V1Errors.translate("list", where(prefix), e);
              }
            });
  }

  @Override
  public void delete(Collection<String> keys) throws IOException {
    List<KeyVersion> batch = new ArrayList<>();
    for (String k : keys) {
      batch.add(new KeyVersion(k));
      if (batch.size() == DELETE_BATCH) {
        deleteBatch(batch);
        batch = new ArrayList<>();
      }
    }
    if (!batch.isEmpty()) {
      deleteBatch(batch);
    }
  }

  private void deleteBatch(List<KeyVersion> batch) throws IOException {
    stats.request(Op.DELETE);
    try {
      spans.run(Op.DELETE, batch.get(0).getKey(), () -> s3.deleteObjects(s3a.delete(batch)));
    } catch (MultiObjectDeleteException e) {
      List<String> failed = new ArrayList<>();
      for (MultiObjectDeleteException.DeleteError err : e.getErrors()) {
        if (!"NoSuchKey".equals(err.getCode())) {
          failed.add(where(err.getKey()) + " (" + err.getCode() + ")");
        }
      }
      if (!failed.isEmpty()) {
        throw new IOException(
            "Could not delete "
                + failed.size()
                + " objects, including "
                + failed.subList(0, Math.min(5, failed.size())));
      }
    } catch (AmazonClientException e) {
      throw V1Errors.translate("delete " + batch.size() + " objects from", describe(), e);
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
    // the client is S3A's
  }

  @Override
  public String toString() {
    return "S3aV1Store{" + describe() + "}";
  }
}
