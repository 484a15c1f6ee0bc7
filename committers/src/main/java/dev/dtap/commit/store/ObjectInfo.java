package dev.dtap.commit.store;

import java.util.Objects;

/** An object's key, size, etag and modification time. Immutable. */
public final class ObjectInfo {
  private final String key;
  private final long length;
  private final String etag;
  private final long modificationTime;

  /**
   * Creates the metadata.
   *
   * @param key the key
   * @param length the size in bytes
   * @param etag the etag, or null if the store gave none
   * @param modificationTime milliseconds since the epoch
   */
  public ObjectInfo(String key, long length, String etag, long modificationTime) {
    this.key = Objects.requireNonNull(key, "key");
    this.length = length;
    this.etag = etag;
    this.modificationTime = modificationTime;
  }

  /**
   * @return the key
   */
  public String key() {
    return key;
  }

  /**
   * @return the size in bytes
   */
  public long length() {
    return length;
  }

  /**
   * @return the etag, or null
   */
  public String etag() {
    return etag;
  }

  /**
   * @return the modification time in milliseconds since the epoch
   */
  public long modificationTime() {
    return modificationTime;
  }

  @Override
  public String toString() {
    return key + " (" + length + " bytes, etag " + etag + ")";
  }
}
