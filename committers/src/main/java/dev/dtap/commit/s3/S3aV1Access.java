package dev.dtap.commit.s3;

import static dev.dtap.commit.s3.S3aMethods.call;
import static dev.dtap.commit.s3.S3aMethods.load;
import static dev.dtap.commit.s3.S3aMethods.method;

import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.model.AbortMultipartUploadRequest;
import com.amazonaws.services.s3.model.CompleteMultipartUploadRequest;
import com.amazonaws.services.s3.model.DeleteObjectsRequest;
import com.amazonaws.services.s3.model.GetObjectMetadataRequest;
import com.amazonaws.services.s3.model.GetObjectRequest;
import com.amazonaws.services.s3.model.InitiateMultipartUploadRequest;
import com.amazonaws.services.s3.model.ListMultipartUploadsRequest;
import com.amazonaws.services.s3.model.ListObjectsV2Request;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PartETag;
import com.amazonaws.services.s3.model.PutObjectRequest;
import com.amazonaws.services.s3.model.UploadPartRequest;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * S3A's own machinery on Hadoop 3.3 (AWS SDK v1), taken from the tap's S3A filesystem: its S3
 * client (endpoint, region, credentials, proxy, signer, TLS, retries) and its request factory
 * (encryption, ACL, storage class). Every request a committer sends on this line is built and sent
 * exactly as S3A sends its own. The methods are looked up by name when a tap's store is made (see
 * {@link S3aMethods}). Thread-safe; the client is S3A's.
 */
final class S3aV1Access {
  private static final String PURPOSE = "dtap committers";

  private final String bucket;
  private final Configuration conf;
  private final AmazonS3 client;
  private final S3aSpans spans;
  private final Object factory;
  private final Object options;
  private final Method initiate;
  private final Method part;
  private final Method complete;
  private final Method metadata;
  private final Method put;
  private final Method abort;
  private final Method get;
  private final Method head;
  private final Method list;
  private final Method delete;
  private final Method uploads;
  private final Method encryption;

  private S3aV1Access(FileSystem s3a) throws IOException {
    this.conf = s3a.getConf();
    Class<?> fsClass = s3a.getClass();
    this.bucket = s3a.getUri().getHost();
    this.spans = S3aSpans.of(s3a);
    this.client =
        (AmazonS3) call(method(fsClass, "getAmazonS3ClientForTesting", String.class), s3a, PURPOSE);
    this.factory = call(method(fsClass, "getRequestFactory"), s3a);
    Class<?> rf = factory.getClass();
    Class<?> optionsClass = load(fsClass, "org.apache.hadoop.fs.s3a.impl.PutObjectOptions");
    this.options = call(method(optionsClass, "keepingDirs"), null);
    this.initiate = method(rf, "newMultipartUploadRequest", String.class, optionsClass);
    this.part =
        method(
            rf,
            "newUploadPartRequest",
            String.class,
            String.class,
            int.class,
            long.class,
            InputStream.class,
            File.class,
            long.class);
    this.complete =
        method(rf, "newCompleteMultipartUploadRequest", String.class, String.class, List.class);
    this.metadata = method(rf, "newObjectMetadata", long.class);
    this.put =
        method(
            rf,
            "newPutObjectRequest",
            String.class,
            ObjectMetadata.class,
            optionsClass,
            InputStream.class);
    this.abort = method(rf, "newAbortMultipartUploadRequest", String.class, String.class);
    this.get = method(rf, "newGetObjectRequest", String.class);
    this.head = method(rf, "newGetObjectMetadataRequest", String.class);
    this.list = method(rf, "newListObjectsV2Request", String.class, String.class, int.class);
    this.delete = method(rf, "newBulkDeleteRequest", List.class);
    this.uploads = method(rf, "newListMultipartUploadsRequest", String.class);
    this.encryption = method(rf, "getServerSideEncryptionAlgorithm");
  }

  /**
   * Whether a filesystem is S3A of Hadoop 3.3 (SDK v1).
   *
   * @param fs a backend filesystem
   * @return true if it offers S3A 3.3's SDK v1 client
   */
  static boolean applies(FileSystem fs) {
    return S3aMethods.has(fs.getClass(), "getAmazonS3ClientForTesting", String.class);
  }

  static S3aV1Access bind(FileSystem s3a) throws IOException {
    return new S3aV1Access(s3a);
  }

  /**
   * @return S3A's effective configuration of the bucket (per-bucket options applied)
   */
  Configuration conf() {
    return conf;
  }

  /**
   * @return the audit spans every request through {@link #client()} runs in
   */
  S3aSpans spans() {
    return spans;
  }

  String bucket() {
    return bucket;
  }

  /**
   * @return S3A's S3 client; S3A owns it. Send through it inside {@link #spans()}
   */
  AmazonS3 client() {
    return client;
  }

  /**
   * @return S3A's encryption method for the bucket, as its enum names it
   */
  String encryptionMethod() throws IOException {
    return ((Enum<?>) call(encryption, factory)).name();
  }

  InitiateMultipartUploadRequest initiate(String key) throws IOException {
    return (InitiateMultipartUploadRequest) call(initiate, factory, key, options);
  }

  UploadPartRequest part(String key, String uploadId, int number, long size, InputStream data)
      throws IOException {
    return (UploadPartRequest) call(part, factory, key, uploadId, number, size, data, null, 0L);
  }

  CompleteMultipartUploadRequest complete(String key, String uploadId, List<PartETag> parts)
      throws IOException {
    return (CompleteMultipartUploadRequest) call(complete, factory, key, uploadId, parts);
  }

  PutObjectRequest put(String key, InputStream data, long length) throws IOException {
    ObjectMetadata md = (ObjectMetadata) call(metadata, factory, length);
    return (PutObjectRequest) call(put, factory, key, md, options, data);
  }

  AbortMultipartUploadRequest abort(String key, String uploadId) throws IOException {
    return (AbortMultipartUploadRequest) call(abort, factory, key, uploadId);
  }

  GetObjectRequest get(String key) throws IOException {
    return (GetObjectRequest) call(get, factory, key);
  }

  GetObjectMetadataRequest head(String key) throws IOException {
    return (GetObjectMetadataRequest) call(head, factory, key);
  }

  ListObjectsV2Request list(String prefix, String delimiter, int maxKeys) throws IOException {
    return (ListObjectsV2Request) call(list, factory, prefix, delimiter, maxKeys);
  }

  DeleteObjectsRequest delete(List<DeleteObjectsRequest.KeyVersion> keys) throws IOException {
    return (DeleteObjectsRequest) call(delete, factory, keys);
  }

  ListMultipartUploadsRequest uploads(String prefix) throws IOException {
    return (ListMultipartUploadsRequest) call(uploads, factory, prefix);
  }
}
