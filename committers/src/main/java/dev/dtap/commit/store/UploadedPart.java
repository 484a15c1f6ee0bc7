package dev.dtap.commit.store;

import java.util.Objects;

/** One uploaded part of a multipart upload. Immutable. */
public final class UploadedPart {
  private final int number;
  private final String etag;
  private final long size;
  private final String crc32c;

  /**
   * Creates a part uploaded without a checksum of its own.
   *
   * @param number the part number, from 1
   * @param etag the etag the store returned for the part
   * @param size the part's bytes
   */
  public UploadedPart(int number, String etag, long size) {
    this(number, etag, size, null);
  }

  /**
   * Creates a part.
   *
   * @param number the part number, from 1
   * @param etag the etag the store returned for the part
   * @param size the part's bytes
   * @param crc32c the part's CRC32C as the store keeps it (base64 of the four big-endian bytes), or
   *     null when the part was uploaded without one; completing the upload repeats it
   */
  public UploadedPart(int number, String etag, long size, String crc32c) {
    if (number < 1) {
      throw new IllegalArgumentException("part numbers start at 1, got " + number);
    }
    this.number = number;
    this.etag = Objects.requireNonNull(etag, "etag");
    this.size = size;
    this.crc32c = crc32c;
  }

  /** @return the part number */
  public int number() {
    return number;
  }

  /** @return the etag the store returned */
  public String etag() {
    return etag;
  }

  /** @return the size in bytes */
  public long size() {
    return size;
  }

  /** @return the part's CRC32C (base64), or null when it was uploaded without one */
  public String crc32c() {
    return crc32c;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof UploadedPart)) {
      return false;
    }
    UploadedPart p = (UploadedPart) o;
    return number == p.number
        && size == p.size
        && etag.equals(p.etag)
        && Objects.equals(crc32c, p.crc32c);
  }

  @Override
  public int hashCode() {
    return Objects.hash(number, etag, size, crc32c);
  }

  @Override
  public String toString() {
    return "part " + number + " (" + size + " bytes, etag " + etag
        + (crc32c == null ? "" : ", crc32c " + crc32c) + ")";
  }
}
