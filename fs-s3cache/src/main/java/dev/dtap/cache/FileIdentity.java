package dev.dtap.cache;

import dev.dtap.cache.disk.PageKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;

/**
 * One version of one object as one tenant reads it: the tap, the tenant's scope (backend, user,
 * credentials), the backend path, and the object's identity, which is its ETag when the backend has
 * one (S3, ABFS, GCS) and otherwise its length and modification time (HDFS and local files, which
 * are not rewritten in place). Page keys derive from it with SHA-256, so unrelated files never
 * collide and a changed object gets new keys.
 *
 * <p>Immutable and thread-safe.
 */
final class FileIdentity {
  private final long hi;
  private final long lo;
  private final long length;
  private final String etag;

  private FileIdentity(long hi, long lo, long length, String etag) {
    this.hi = hi;
    this.lo = lo;
    this.length = length;
    this.etag = etag;
  }

  /**
   * The identity of a file version.
   *
   * @param tap the tap name
   * @param scope who reads ({@link TenantScope}): backend, user and credentials
   * @param status the backend's status of the file
   * @param pageSize the page size: page {@code i} covers other bytes under another size, so pages
   *     cached with another size (before a change of fs.dtap.cache.page.size, or by a JVM with
   *     other settings) must never be found
   * @return the identity
   */
  static FileIdentity of(String tap, String scope, FileStatus status, int pageSize) {
    String etag = status instanceof EtagSource ? ((EtagSource) status).getEtag() : null;
    String version =
        etag != null && !etag.isEmpty()
            ? "etag:" + etag
            : "len:" + status.getLen() + ":mtime:" + status.getModificationTime();
    String key =
        tap
            + '\u0000'
            + scope
            + '\u0000'
            + status.getPath().toUri().getPath()
            + '\u0000'
            + version
            + '\u0000'
            + pageSize;
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      long hi = 0;
      long lo = 0;
      for (int i = 0; i < 8; i++) {
        hi = (hi << 8) | (d[i] & 0xff);
        lo = (lo << 8) | (d[8 + i] & 0xff);
      }
      return new FileIdentity(hi, lo, status.getLen(), etag);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /**
   * The key of one page of this version.
   *
   * @param page the page index
   * @return the key
   */
  PageKey page(long page) {
    // mix the index into both halves so neighbouring pages spread over directories
    long m = page * 0x9e3779b97f4a7c15L;
    return new PageKey(hi ^ m, lo + page);
  }

  /**
   * @return a key naming the file version itself (not a page), for bookkeeping
   */
  PageKey fileKey() {
    return new PageKey(hi, lo);
  }

  long length() {
    return length;
  }

  /**
   * @return the ETag the reads are pinned to, or null
   */
  String etag() {
    return etag;
  }
}
