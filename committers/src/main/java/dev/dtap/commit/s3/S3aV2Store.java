package dev.dtap.commit.s3;

import dev.dtap.commit.store.InitiatedUpload;
import dev.dtap.commit.store.KeyNames;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.ObjectInfo;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.StoreStatistics;
import dev.dtap.commit.store.StoreStatistics.Op;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.RemoteIterator;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link MultipartStore} over a tap's S3A bucket on Hadoop 3.4 and later: every request through
 * S3A's own client, built by S3A's request factory ({@link S3aV2Access}); the requests made for
 * every file are {@link ClientUploads}. Messages name dtap paths. Thread-safe; S3A owns the client.
 */
final class S3aV2Store implements MultipartStore {
  private static final int DELETE_BATCH = 1000;
  private static final int LIST_PAGE = 1000;

  private final S3aV2Access s3a;
  private final S3Client s3;
  private final ClientUploads uploads;
  private final KeyNames names;
  private final boolean conditionalPut;
  private final StoreStatistics stats = new StoreStatistics();
  private final StoreRetries retries;
  private final S3aSpans spans;
  private final V2PendingUploads pending;

  /**
   * @param s3a the tap's S3A
   * @param uploads the per-file requests
   * @param names names keys in messages
   * @param conditionalPut whether the store honours {@code If-None-Match: *}
   */
  S3aV2Store(S3aV2Access s3a, ClientUploads uploads, KeyNames names, boolean conditionalPut) {
    this.s3a = s3a;
    this.s3 = s3a.client();
    this.uploads = uploads;
    this.names = names;
    this.conditionalPut = conditionalPut;
    this.spans = s3a.spans();
    this.retries = new StoreRetries(s3a.conf(), spans);
    this.pending = new V2PendingUploads(s3a, names, stats);
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
    return uploads.initiate(key);
  }

  @Override
  public List<String> pendingUploads(String key) throws IOException {
    return retries.idempotent(Op.LIST_UPLOADS, key, where(key), () -> pending.uploads(key));
  }

  @Override
  public UploadedPart uploadPart(String key, String uploadId, int partNumber, PartData data)
      throws IOException {
    stats.request(Op.UPLOAD_PART);
    UploadedPart part = uploads.uploadPart(key, uploadId, partNumber, data);
    stats.uploaded(data.length());
    return part;
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
      spans.run(Op.ABORT, key, () -> s3.abortMultipartUpload(s3a.abort(key, uploadId).build()));
      return true;
    } catch (SdkException e) {
      if (S3Errors.isNoSuchUpload(e)) {
        return false;
      }
      throw S3Errors.translate(
          "abort upload " + uploadId + " to", where(key), S3Errors.Subject.UPLOAD, e);
    } catch (UncheckedIOException e) {
      throw S3Errors.translate("abort upload " + uploadId + " to", where(key), e);
    }
  }

  @Override
  public Optional<List<UploadedPart>> listParts(String key, String uploadId) throws IOException {
    return retries.idempotent(Op.LIST_PARTS, key, where(key), () -> pending.parts(key, uploadId));
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
    return retries.idempotent(Op.GET, key, where(key), () -> getOnce(key));
  }

  private Optional<byte[]> getOnce(String key) throws IOException {
    stats.request(Op.GET);
    try {
      ResponseBytes<GetObjectResponse> r = s3.getObjectAsBytes(s3a.get(key).build());
      return Optional.of(r.asByteArrayUnsafe());
    } catch (SdkException e) {
      if (S3Errors.isMissing(e)) {
        return Optional.empty();
      }
      throw S3Errors.translate("get", where(key), e);
    } catch (UncheckedIOException e) {
      throw S3Errors.translate("get", where(key), e);
    }
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    return retries.idempotent(Op.HEAD, key, where(key), () -> headOnce(key));
  }

  private Optional<ObjectInfo> headOnce(String key) throws IOException {
    stats.request(Op.HEAD);
    try {
      HeadObjectResponse r = s3.headObject(s3a.head(key).build());
      long mtime = r.lastModified() == null ? 0 : r.lastModified().toEpochMilli();
      return Optional.of(new ObjectInfo(key, r.contentLength(), r.eTag(), mtime));
    } catch (SdkException e) {
      if (S3Errors.isMissing(e)) {
        return Optional.empty();
      }
      throw S3Errors.translate("head", where(key), e);
    } catch (UncheckedIOException e) {
      throw S3Errors.translate("head", where(key), e);
    }
  }

  @Override
  public RemoteIterator<ObjectInfo> list(String prefix) throws IOException {
    return new ListingPages<ListObjectsV2Response, ObjectInfo>(
        page(prefix, null), where(prefix), stats) {
      @Override
      String next(ListObjectsV2Response page) {
        return nextToken(page);
      }

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
    return new ListingPages<ListObjectsV2Response, String>(
        page(prefix, "/"), where(prefix), stats) {
      @Override
      String next(ListObjectsV2Response page) {
        return nextToken(page);
      }

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

  private static String nextToken(ListObjectsV2Response page) {
    return Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
  }

  /** Fetches one page of a listing, after the given continuation token (null: the first). */
  private ListingPages.Fetch<ListObjectsV2Response> page(String prefix, String delimiter) {
    return token ->
        retries.idempotent(
            Op.LIST,
            prefix,
            where(prefix),
            () -> {
              try {
                return s3.listObjectsV2(
                    s3a.list(prefix, delimiter, LIST_PAGE).continuationToken(token).build());
              } catch (SdkException e) {
                throw S3Errors.translate("list", where(prefix), e);
              } catch (UncheckedIOException e) {
                throw S3Errors.translate("list", where(prefix), e);
              }
            });
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
    List<ObjectIdentifier> ids = new ArrayList<>(batch);
    String what = "delete " + ids.size() + " objects from";
    DeleteObjectsResponse r =
        retries.idempotent(
            Op.DELETE,
            ids.get(0).key(),
            describe(),
            () -> {
              stats.request(Op.DELETE);
              try {
                return s3.deleteObjects(s3a.delete(ids).build());
              } catch (SdkException e) {
                throw S3Errors.translate(what, describe(), e);
              } catch (UncheckedIOException e) {
                throw S3Errors.translate(what, describe(), e);
              }
            });
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
    // the client and filesystem are S3A's
  }

  @Override
  public String toString() {
    return "S3aV2Store{" + describe() + "}";
  }
}
