package dev.dtap.commit.store;

import java.util.Objects;

/** One uploaded part of a multipart upload. Immutable. */
public final class UploadedPart {
  private final int number;
  private final String etag;
  private final long size;

  /**
   * Creates a part.
   *
   * @param number the part number, from 1
   * @param etag the etag the store returned for the part
   * @param size the part's bytes
   */
  public UploadedPart(int number, String etag, long size) {
    if (number < 1) {
      throw new IllegalArgumentException("part numbers start at 1, got " + number);
    }
    this.number = number;
    this.etag = Objects.requireNonNull(etag, "etag");
    this.size = size;
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

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof UploadedPart)) {
      return false;
    }
    UploadedPart p = (UploadedPart) o;
    return number == p.number && size == p.size && etag.equals(p.etag);
  }

  @Override
  public int hashCode() {
    return Objects.hash(number, etag, size);
  }

  @Override
  public String toString() {
    return "part " + number + " (" + size + " bytes, etag " + etag + ")";
  }
}
