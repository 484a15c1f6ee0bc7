package dev.dtap.commit.s3;

import dev.dtap.commit.store.KeyNames;
import dev.dtap.commit.store.StoreStatistics;
import dev.dtap.commit.store.StoreStatistics.Op;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListPartsRequest;
import software.amazon.awssdk.services.s3.model.ListPartsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.Part;

/**
 * What is pending in a tap's bucket, asked through S3A's SDK v2 client (Hadoop 3.4 and later): the
 * uploads of one key and the parts of one upload, every page of them. One attempt each; {@link
 * S3aV2Store} retries them as idempotent requests. Thread-safe; the client is S3A's.
 */
final class V2PendingUploads {
  private final S3aV2Access s3a;
  private final S3Client s3;
  private final KeyNames names;
  private final StoreStatistics stats;

  V2PendingUploads(S3aV2Access s3a, KeyNames names, StoreStatistics stats) {
    this.s3a = s3a;
    this.s3 = s3a.client();
    this.names = names;
    this.stats = stats;
  }

  private String where(String key) {
    return names.display(key);
  }

  /**
   * @param key the object key
   * @return the ids of the uploads pending at exactly that key
   * @throws IOException if the store refuses or cannot be reached
   */
  List<String> uploads(String key) throws IOException {
    List<String> ids = new ArrayList<>();
    String keyMarker = null;
    String idMarker = null;
    try {
      while (true) {
        stats.request(Op.LIST_UPLOADS);
        ListMultipartUploadsResponse r =
            s3.listMultipartUploads(
                s3a.uploads(key).keyMarker(keyMarker).uploadIdMarker(idMarker).build());
        for (MultipartUpload u : r.uploads()) {
          if (u.key().equals(key)) {
            ids.add(u.uploadId());
          }
        }
        // a truncated page without a next marker would restart the listing: stop instead
        if (!Boolean.TRUE.equals(r.isTruncated()) || r.nextKeyMarker() == null) {
          return ids;
        }
        keyMarker = r.nextKeyMarker();
        idMarker = r.nextUploadIdMarker();
      }
    } catch (SdkException e) {
      throw S3Errors.translate("list the uploads of", where(key), e);
    } catch (UncheckedIOException e) {
      throw S3Errors.translate("list the uploads of", where(key), e);
    }
  }

  /**
   * @param key the object key
   * @param uploadId the upload
   * @return its parts, or empty if the upload is not pending
   * @throws IOException if the store refuses or cannot be reached
   */
  Optional<List<UploadedPart>> parts(String key, String uploadId) throws IOException {
    // S3A has no builder for it: the encryption key its HEAD of the object would carry, if any
    HeadObjectRequest head = s3a.head(key).build();
    List<UploadedPart> parts = new ArrayList<>();
    Integer marker = null;
    try {
      while (true) {
        stats.request(Op.LIST_PARTS);
        ListPartsRequest.Builder b =
            ListPartsRequest.builder()
                .bucket(s3a.bucket())
                .key(key)
                .uploadId(uploadId)
                .sseCustomerAlgorithm(head.sseCustomerAlgorithm())
                .sseCustomerKey(head.sseCustomerKey())
                .sseCustomerKeyMD5(head.sseCustomerKeyMD5());
        if (marker != null) {
          b.partNumberMarker(marker);
        }
        ListPartsResponse r = s3.listParts(b.build());
        for (Part p : r.parts()) {
          String alg = r.checksumAlgorithmAsString();
          String sum =
              alg == null ? null : p.getValueForField("Checksum" + alg, String.class).orElse(null);
          parts.add(
              new UploadedPart(p.partNumber(), p.eTag(), p.size(), sum == null ? null : alg, sum));
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
      throw S3Errors.translate(
          "list parts of upload " + uploadId + " to", where(key), S3Errors.Subject.UPLOAD, e);
    } catch (UncheckedIOException e) {
      throw S3Errors.translate("list parts of upload " + uploadId + " to", where(key), e);
    }
  }
}
