package dev.dtap.commit.store;

import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * What the committers need of an object store: multipart uploads that stay invisible until
 * completed, small records with an optional exclusive create, listing and bulk delete. Keys are
 * relative to one bucket (or the store's equivalent); the committers derive them from dtap paths
 * through the tap's root.
 *
 * <p>Implementations are thread-safe; one instance serves every committer and stream of a tap in
 * the JVM. Errors are {@link IOException}s that name the store and key, never credentials.
 */
public interface MultipartStore extends Closeable {
  /**
   * A short description for messages, such as {@code s3a://bucket}.
   *
   * @return the description
   */
  String describe();

  /**
   * Starts a multipart upload; nothing is visible at the key until {@link #complete}.
   *
   * @param key the destination key
   * @return the upload, and whether the request was sent more than once
   * @throws IOException on failure
   */
  InitiatedUpload initiate(String key) throws IOException;

  /**
   * The uploads pending at exactly one key, whoever started them.
   *
   * @param key the destination key
   * @return their ids
   * @throws IOException on failure
   */
  List<String> pendingUploads(String key) throws IOException;

  /**
   * Uploads one part. Part numbers start at 1; every part but the last must be at least {@link
   * #minimumPartSize()} bytes.
   *
   * @param key the destination key
   * @param uploadId the upload
   * @param partNumber 1 to 10,000
   * @param data the bytes, which may be read more than once if the request is retried
   * @return the uploaded part
   * @throws NoSuchUploadException if the upload was aborted or completed
   * @throws IOException on other failures
   */
  UploadedPart uploadPart(String key, String uploadId, int partNumber, PartData data)
      throws IOException;

  /**
   * Completes an upload, making the object visible at its key.
   *
   * @param key the destination key
   * @param uploadId the upload
   * @param parts every part, in part-number order
   * @return the completed object's etag
   * @throws NoSuchUploadException if the upload is unknown (aborted, or already completed)
   * @throws IOException on other failures
   */
  String complete(String key, String uploadId, List<UploadedPart> parts) throws IOException;

  /**
   * Aborts an upload, discarding its parts.
   *
   * @param key the destination key
   * @param uploadId the upload
   * @return false if the upload did not exist (already aborted or completed)
   * @throws IOException on other failures
   */
  boolean abort(String key, String uploadId) throws IOException;

  /**
   * The parts of a pending upload.
   *
   * @param key the destination key
   * @param uploadId the upload
   * @return the parts in part-number order, or empty if no such upload is pending
   * @throws IOException on failure
   */
  Optional<List<UploadedPart>> listParts(String key, String uploadId) throws IOException;

  /**
   * Writes a small object.
   *
   * @param key the key
   * @param data the content
   * @throws IOException on failure
   */
  void put(String key, byte[] data) throws IOException;

  /**
   * Writes a small object only if nothing exists at the key, atomically where the store supports
   * conditional writes ({@link #supportsConditionalPut()}).
   *
   * @param key the key
   * @param data the content
   * @return false if an object already existed, and nothing was written
   * @throws IOException on failure
   */
  boolean putIfAbsent(String key, byte[] data) throws IOException;

  /**
   * Whether {@link #putIfAbsent} is atomic. Where it is not, two writers racing for a key may both
   * succeed and the later one wins.
   *
   * @return true for stores that honour {@code If-None-Match: *}
   */
  boolean supportsConditionalPut();

  /**
   * Reads a small object.
   *
   * @param key the key
   * @return the content, or empty if there is no object
   * @throws IOException on failure
   */
  Optional<byte[]> get(String key) throws IOException;

  /**
   * Reads an object's metadata.
   *
   * @param key the key
   * @return the metadata, or empty if there is no object
   * @throws IOException on failure
   */
  Optional<ObjectInfo> head(String key) throws IOException;

  /**
   * Lists every object whose key starts with a prefix, in key order, a page at a time.
   *
   * @param prefix the prefix (usually ending with {@code /})
   * @return the objects
   * @throws IOException on failure
   */
  RemoteIterator<ObjectInfo> list(String prefix) throws IOException;

  /**
   * Lists the immediate "directories" under a prefix: the distinct key prefixes up to the next
   * {@code /}.
   *
   * @param prefix the prefix, ending with {@code /} or empty
   * @return the child prefixes, each ending with {@code /}, in key order
   * @throws IOException on failure
   */
  RemoteIterator<String> listChildPrefixes(String prefix) throws IOException;

  /**
   * Deletes objects in as few requests as the store allows. Missing keys are not an error.
   *
   * @param keys the keys
   * @throws IOException if some could not be deleted (the message names a few)
   */
  void delete(Collection<String> keys) throws IOException;

  /**
   * @return the smallest size of a part that is not the last (5 MiB on S3)
   */
  long minimumPartSize();

  /**
   * @return the requests this store has sent, by operation
   */
  StoreStatistics statistics();
}
