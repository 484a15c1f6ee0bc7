package dev.dtap.commit.s3;

import com.amazonaws.AmazonClientException;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.model.ListMultipartUploadsRequest;
import com.amazonaws.services.s3.model.ListPartsRequest;
import com.amazonaws.services.s3.model.MultipartUpload;
import com.amazonaws.services.s3.model.MultipartUploadListing;
import com.amazonaws.services.s3.model.PartListing;
import com.amazonaws.services.s3.model.PartSummary;
import dev.dtap.commit.store.KeyNames;
import dev.dtap.commit.store.StoreStatistics;
import dev.dtap.commit.store.StoreStatistics.Op;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What is pending in a tap's bucket, asked through S3A's SDK v1 client (Hadoop 3.3): the uploads of
 * one key and the parts of one upload, every page of them. One attempt each; {@link S3aV1Store}
 * retries them as idempotent requests. Thread-safe; the client is S3A's.
 */
final class V1PendingUploads {
  private final S3aV1Access s3a;
  private final AmazonS3 s3;
  private final KeyNames names;
  private final StoreStatistics stats;

  V1PendingUploads(S3aV1Access s3a, KeyNames names, StoreStatistics stats) {
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
        ListMultipartUploadsRequest r = s3a.uploads(key);
        r.setKeyMarker(keyMarker);
        r.setUploadIdMarker(idMarker);
        MultipartUploadListing page = s3.listMultipartUploads(r);
        for (MultipartUpload u : page.getMultipartUploads()) {
          if (u.getKey().equals(key)) {
            ids.add(u.getUploadId());
          }
        }
        // a truncated page without a next marker would restart the listing: stop instead
        if (!page.isTruncated() || page.getNextKeyMarker() == null) {
          return ids;
        }
        keyMarker = page.getNextKeyMarker();
        idMarker = page.getNextUploadIdMarker();
      }
    } catch (AmazonClientException e) {
      throw V1Errors.translate("list the uploads of", where(key), e);
    }
  }

  /**
   * @param key the object key
   * @param uploadId the upload
   * @return its parts, or empty if the upload is not pending
   * @throws IOException if the store refuses or cannot be reached
   */
  Optional<List<UploadedPart>> parts(String key, String uploadId) throws IOException {
    List<UploadedPart> parts = new ArrayList<>();
    Integer marker = null;
    try {
      while (true) {
        stats.request(Op.LIST_PARTS);
        ListPartsRequest r = new ListPartsRequest(s3a.bucket(), key, uploadId);
        if (marker != null) {
          r.setPartNumberMarker(marker);
        }
        PartListing page = s3.listParts(r);
        for (PartSummary p : page.getParts()) {
          parts.add(new UploadedPart(p.getPartNumber(), p.getETag(), p.getSize()));
        }
        if (!page.isTruncated() || page.getNextPartNumberMarker() == null) {
          return Optional.of(parts);
        }
        marker = page.getNextPartNumberMarker();
      }
    } catch (AmazonClientException e) {
      if (V1Errors.noSuchUpload(e)) {
        return Optional.empty();
      }
      throw V1Errors.translate(
          "list parts of upload " + uploadId + " to", where(key), S3Errors.Subject.UPLOAD, e);
    }
  }
}
