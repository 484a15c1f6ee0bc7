package dev.dtap.commit.s3;

import static dev.dtap.commit.s3.S3aMethods.call;
import static dev.dtap.commit.s3.S3aMethods.load;
import static dev.dtap.commit.s3.S3aMethods.method;

import java.io.IOException;
import java.lang.reflect.Method;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * S3A's own machinery on Hadoop 3.4 and later (AWS SDK v2), taken from the tap's S3A filesystem:
 * its S3 client (endpoint, region, credentials, proxy, signer, TLS, retries, requester-pays) and
 * its request factory (encryption, ACL, storage class, checksums, content encoding). Every request
 * a committer sends is built here exactly as S3A builds its own and sent through that client.
 *
 * <p>The S3A methods are private API whose signatures are stable from 3.4.0 to 3.5.0; they are
 * looked up by name when a tap's store is made, so a Hadoop line without them fails then, naming
 * the method, and never halfway through a job. The client and filesystem belong to S3A.
 * Thread-safe.
 */
final class S3aV2Access {
  private static final String PURPOSE = "dtap committers";

  private final String bucket;
  private final Configuration conf;
  private final S3Client client;
  private final S3aSpans spans;
  private final Object factory;
  private final Object options;
  private final Method initiate;
  private final Method part;
  private final Method complete;
  private final Method put;
  private final Method abort;
  private final Method get;
  private final Method head;
  private final Method list;
  private final Method delete;
  private final Method uploads;
  private final Method encryption;

  private S3aV2Access(FileSystem s3a) throws IOException {
    Class<?> fsClass = s3a.getClass();
    this.bucket = s3a.getUri().getHost();
    this.spans = S3aSpans.of(s3a);
    this.conf = s3a.getConf();
    Object internals = call(method(fsClass, "getS3AInternals"), s3a);
    this.client =
        (S3Client)
            call(
                method(internals.getClass(), "getAmazonS3Client", String.class),
                internals,
                PURPOSE);
    this.factory = call(method(fsClass, "getRequestFactory"), s3a);
    Class<?> rf = factory.getClass();
    Class<?> optionsClass = load(fsClass, "org.apache.hadoop.fs.s3a.impl.PutObjectOptions");
    this.options = call(method(optionsClass, "defaultOptions"), null);
    this.initiate = method(rf, "newMultipartUploadRequestBuilder", String.class, optionsClass);
    this.part =
        method(
            rf,
            "newUploadPartRequestBuilder",
            String.class,
            String.class,
            int.class,
            boolean.class,
            long.class);
    this.complete =
        method(
            rf,
            "newCompleteMultipartUploadRequestBuilder",
            String.class,
            String.class,
            List.class,
            optionsClass);
    this.put =
        method(
            rf,
            "newPutObjectRequestBuilder",
            String.class,
            optionsClass,
            long.class,
            boolean.class);
    this.abort = method(rf, "newAbortMultipartUploadRequestBuilder", String.class, String.class);
    this.get = method(rf, "newGetObjectRequestBuilder", String.class);
    this.head = method(rf, "newHeadObjectRequestBuilder", String.class);
    this.list = method(rf, "newListObjectsV2RequestBuilder", String.class, String.class, int.class);
    this.delete = method(rf, "newBulkDeleteRequestBuilder", List.class);
    this.uploads = method(rf, "newListMultipartUploadsRequestBuilder", String.class);
    this.encryption = method(rf, "getServerSideEncryptionAlgorithm");
  }

  /**
   * Whether a filesystem is S3A of Hadoop 3.4 or later.
   *
   * @param fs a backend filesystem
   * @return true if it has S3A's 3.4 internals
   */
  static boolean applies(FileSystem fs) {
    return S3aMethods.has(fs.getClass(), "getS3AInternals");
  }

  /**
   * Binds to a tap's S3A filesystem.
   *
   * @param s3a the backend, an S3AFileSystem of Hadoop 3.4 or later
   * @return the access
   * @throws IOException if this S3A lacks a method the committers use (naming it)
   */
  static S3aV2Access bind(FileSystem s3a) throws IOException {
    return new S3aV2Access(s3a);
  }

  /**
   * @return the audit spans every request through {@link #client()} runs in
   */
  S3aSpans spans() {
    return spans;
  }

  /**
   * @return the bucket
   */
  String bucket() {
    return bucket;
  }

  /**
   * @return S3A's effective configuration of the bucket (per-bucket options applied)
   */
  Configuration conf() {
    return conf;
  }

  /**
   * @return S3A's S3 client; S3A owns it. Send through it inside {@link #spans()}
   */
  S3Client client() {
    return client;
  }

  /**
   * @return S3A's encryption method for the bucket, as its enum names it ({@code SSE_KMS}, {@code
   *     NONE}...)
   */
  String encryptionMethod() throws IOException {
    return ((Enum<?>) call(encryption, factory)).name();
  }

  CreateMultipartUploadRequest.Builder initiate(String key) throws IOException {
    return (CreateMultipartUploadRequest.Builder) call(initiate, factory, key, options);
  }

  UploadPartRequest.Builder part(String key, String uploadId, int number, long size)
      throws IOException {
    // "last part" only matters to S3A's client-side encryption, which the committers refuse
    return (UploadPartRequest.Builder) call(part, factory, key, uploadId, number, false, size);
  }

  CompleteMultipartUploadRequest.Builder complete(
      String key, String uploadId, List<CompletedPart> parts) throws IOException {
    return (CompleteMultipartUploadRequest.Builder)
        call(complete, factory, key, uploadId, parts, options);
  }

  PutObjectRequest.Builder put(String key, long length) throws IOException {
    return (PutObjectRequest.Builder) call(put, factory, key, options, length, false);
  }

  AbortMultipartUploadRequest.Builder abort(String key, String uploadId) throws IOException {
    return (AbortMultipartUploadRequest.Builder) call(abort, factory, key, uploadId);
  }

  GetObjectRequest.Builder get(String key) throws IOException {
    return (GetObjectRequest.Builder) call(get, factory, key);
  }

  HeadObjectRequest.Builder head(String key) throws IOException {
    return (HeadObjectRequest.Builder) call(head, factory, key);
  }

  ListObjectsV2Request.Builder list(String prefix, String delimiter, int maxKeys)
      throws IOException {
    return (ListObjectsV2Request.Builder) call(list, factory, prefix, delimiter, maxKeys);
  }

  DeleteObjectsRequest.Builder delete(List<ObjectIdentifier> ids) throws IOException {
    return (DeleteObjectsRequest.Builder) call(delete, factory, ids);
  }

  ListMultipartUploadsRequest.Builder uploads(String prefix) throws IOException {
    return (ListMultipartUploadsRequest.Builder) call(uploads, factory, prefix);
  }
}
