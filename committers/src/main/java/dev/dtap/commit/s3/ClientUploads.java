package dev.dtap.commit.s3;

import dev.dtap.commit.store.InitiatedUpload;
import dev.dtap.commit.store.KeyNames;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.StoreStatistics.Op;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.metrics.MetricPublisher;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * The requests a committer makes for every file it writes (initiate, upload part, complete, and the
 * small puts of its journal and task records), sent through S3A's own S3 client with requests built
 * by S3A's request factory, each inside an audit span of the tap's S3A. The client computes any
 * part checksum S3A asks for; it is kept with the part for the complete. Failures are IOExceptions
 * classified as {@link S3Errors} does, naming the dtap path. Thread-safe; the client is S3A's.
 */
final class ClientUploads {
  private final S3aV2Access s3a;
  private final S3Client s3;
  private final S3aSpans spans;
  private final KeyNames names;
  private final String checksumAlgorithm;
  private final List<MetricPublisher> clientPublishers;

  /**
   * @param s3a the tap's S3A
   * @param names names keys in messages
   * @param checksumAlgorithm the S3 name of the parts' checksum S3A's requests ask for, or null
   */
  ClientUploads(S3aV2Access s3a, KeyNames names, String checksumAlgorithm) {
    this.s3a = s3a;
    this.s3 = s3a.client();
    this.spans = s3a.spans();
    this.names = names;
    this.checksumAlgorithm = checksumAlgorithm;
    this.clientPublishers =
        s3.serviceClientConfiguration().overrideConfiguration().metricPublishers();
  }

  /**
   * @param key the object key
   * @return the new upload, and whether the SDK sent the initiate more than once
   * @throws IOException if the store refuses or cannot be reached
   */
  InitiatedUpload initiate(String key) throws IOException {
    SendCount sends = new SendCount(clientPublishers);
    try {
      String id =
          spans
              .run(
                  Op.INITIATE,
                  key,
                  () -> {
                    CreateMultipartUploadRequest.Builder b = s3a.initiate(key);
                    AwsRequestOverrideConfiguration o = b.overrideConfiguration();
                    b.overrideConfiguration(
                        (o == null ? AwsRequestOverrideConfiguration.builder() : o.toBuilder())
                            .addMetricPublisher(sends)
                            .build());
                    return s3.createMultipartUpload(b.build());
                  })
              .uploadId();
      return new InitiatedUpload(id, sends.resent());
    } catch (SdkException e) {
      throw S3Errors.translate("initiate upload to", names.display(key), e);
    } catch (UncheckedIOException e) {
      throw S3Errors.translate("initiate upload to", names.display(key), e);
    }
  }

  /**
   * @param key the object key
   * @param uploadId the upload
   * @param partNumber from 1
   * @param data the bytes
   * @return the part as the store acknowledged it
   * @throws IOException {@link dev.dtap.commit.store.NoSuchUploadException} for an unknown upload
   */
  UploadedPart uploadPart(String key, String uploadId, int partNumber, PartData data)
      throws IOException {
    ContentStreamProvider content =
        () -> {
          try {
            return data.open();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        };
    try {
      // built inside the span: S3A's request factory hands each new request to the active span
      UploadPartResponse r =
          spans.run(
              Op.UPLOAD_PART,
              key,
              () ->
                  s3.uploadPart(
                      s3a.part(key, uploadId, partNumber, data.length()).build(),
                      RequestBody.fromContentProvider(
                          content, data.length(), "application/octet-stream")));
      String sum =
          checksumAlgorithm == null
              ? null
              : r.getValueForField("Checksum" + checksumAlgorithm, String.class).orElse(null);
      return new UploadedPart(
          partNumber, r.eTag(), data.length(), sum == null ? null : checksumAlgorithm, sum);
    } catch (SdkException e) {
      throw S3Errors.translate(
          "upload part " + partNumber + " of upload " + uploadId + " to",
          names.display(key),
          S3Errors.Subject.UPLOAD,
          e);
    } catch (UncheckedIOException e) {
      throw S3Errors.translate(
          "upload part " + partNumber + " of upload " + uploadId + " to", names.display(key), e);
    }
  }

  /**
   * The parts of a complete request, each with the checksum it was uploaded with.
   *
   * @param parts the uploaded parts
   * @return the SDK's parts
   */
  static List<CompletedPart> completedParts(List<UploadedPart> parts) {
    List<CompletedPart> done = new ArrayList<>(parts.size());
    for (UploadedPart p : parts) {
      CompletedPart.Builder b = CompletedPart.builder().partNumber(p.number()).eTag(p.etag());
      if (p.checksum() != null) {
        SdkField<?> f =
            CompletedPart.builder()
                .build()
                .sdkFieldNameToField()
                .get("Checksum" + p.checksumAlgorithm());
        if (f == null) {
          throw new IllegalArgumentException(
              "This AWS SDK cannot complete parts with " + p.checksumAlgorithm());
        }
        f.set(b, p.checksum());
      }
      done.add(b.build());
    }
    return done;
  }

  /**
   * @param key the object key
   * @param uploadId the upload
   * @param parts every part, in order
   * @return the object's ETag
   * @throws IOException {@link dev.dtap.commit.store.NoSuchUploadException} for an unknown upload
   */
  String complete(String key, String uploadId, List<UploadedPart> parts) throws IOException {
    try {
      return spans
          .run(
              Op.COMPLETE,
              key,
              () ->
                  s3.completeMultipartUpload(
                      s3a.complete(key, uploadId, completedParts(parts)).build()))
          .eTag();
    } catch (SdkException e) {
      throw S3Errors.translate(
          "complete upload " + uploadId + " to", names.display(key), S3Errors.Subject.COMPLETE, e);
    } catch (UncheckedIOException e) {
      throw S3Errors.translate("complete upload " + uploadId + " to", names.display(key), e);
    }
  }

  /**
   * Writes a small object, replacing one of the same key.
   *
   * @param key the object key
   * @param data the bytes
   * @throws IOException if the store refuses or cannot be reached
   */
  void put(String key, byte[] data) throws IOException {
    try {
      spans.run(
          Op.PUT,
          key,
          () -> s3.putObject(s3a.put(key, data.length).build(), RequestBody.fromBytes(data)));
    } catch (SdkException e) {
      throw S3Errors.translate("put", names.display(key), e);
    } catch (UncheckedIOException e) {
      throw S3Errors.translate("put", names.display(key), e);
    }
  }

  /**
   * Writes a small object with {@code If-None-Match: *}.
   *
   * @param key the object key
   * @param data the bytes
   * @return false if the object exists, or another conditional write to the key is in progress
   * @throws IOException if the store refuses otherwise or cannot be reached
   */
  boolean putIfAbsent(String key, byte[] data) throws IOException {
    try {
      spans.run(
          Op.PUT,
          key,
          () -> s3.putObject(conditionalPut(key, data.length), RequestBody.fromBytes(data)));
      return true;
    } catch (SdkException e) {
      // 412: the object exists; 409: a concurrent conditional write to the key is in progress
      if (S3Errors.isStatus(e, 412) || S3Errors.isStatus(e, 409)) {
        return false;
      }
      throw S3Errors.translate("conditional put", names.display(key), e);
    }
  }

  /** A put of S3A's that fails if the key exists; built inside the request's span. */
  private PutObjectRequest conditionalPut(String key, long length) throws IOException {
    PutObjectRequest.Builder b = s3a.put(key, length);
    AwsRequestOverrideConfiguration o = b.overrideConfiguration();
    // added to what S3A set (its timeouts), not in place of it
    return b.overrideConfiguration(
            (o == null ? AwsRequestOverrideConfiguration.builder() : o.toBuilder())
                .putHeader("If-None-Match", "*")
                .build())
        .build();
  }
}
