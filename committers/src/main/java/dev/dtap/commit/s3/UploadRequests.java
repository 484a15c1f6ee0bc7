package dev.dtap.commit.s3;

import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * The requests a committer makes for every file it writes: initiate, upload part, complete, and the
 * small puts of its journal and task records. Four of them per file, so their cost per request is
 * most of a job's request cost; {@link S3aV2Store} sends everything else through S3A's client.
 * Failures are IOExceptions classified as {@link S3Errors} does, naming the {@code s3a://} path.
 *
 * <p>Implementations are thread-safe.
 */
interface UploadRequests extends Closeable {
  /**
   * @param key the object key
   * @return the new upload's id
   * @throws IOException if the store refuses or cannot be reached
   */
  String initiate(String key) throws IOException;

  /**
   * @param key the object key
   * @param uploadId the upload
   * @param partNumber from 1
   * @param data the bytes
   * @return the part as the store acknowledged it
   * @throws IOException {@link dev.dtap.commit.store.NoSuchUploadException} for an unknown upload
   */
  UploadedPart uploadPart(String key, String uploadId, int partNumber, PartData data)
      throws IOException;

  /**
   * @param key the object key
   * @param uploadId the upload
   * @param parts every part, in order
   * @return the object's ETag
   * @throws IOException {@link dev.dtap.commit.store.NoSuchUploadException} for an unknown upload
   */
  String complete(String key, String uploadId, List<UploadedPart> parts) throws IOException;

  /**
   * Writes a small object, replacing one of the same key.
   *
   * @param key the object key
   * @param data the bytes
   * @throws IOException if the store refuses or cannot be reached
   */
  void put(String key, byte[] data) throws IOException;

  /**
   * Writes a small object with {@code If-None-Match: *}.
   *
   * @param key the object key
   * @param data the bytes
   * @return false if the object exists, or another conditional write to the key is in progress
   * @throws IOException if the store refuses otherwise or cannot be reached
   */
  boolean putIfAbsent(String key, byte[] data) throws IOException;

  /** Releases what the requests hold (connections); never the SDK's client. */
  @Override
  void close();
}
