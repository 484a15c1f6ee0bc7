package dev.dtap.commit.store;

import java.util.Objects;

/** One uploaded part of a multipart upload. Immutable. */
public final class UploadedPart {
  private final int number;
  private final String etag;
  private final long size;
  private final String checksumAlgorithm;
  private final String checksum;

  /**
   * Creates a part uploaded without a checksum of its own.
   *
   * @param number the part number, from 1
   * @param etag the etag the store returned for the part
   * @param size the part's bytes
   */
  public UploadedPart(int number, String etag, long size) {
    this(number, etag, size, null, null);
  }

  /**
   * Creates a part.
   *
   * @param number the part number, from 1
   * @param etag the etag the store returned for the part
   * @param size the part's bytes
   * @param checksumAlgorithm the S3 name of the algorithm of the part's checksum ({@code CRC32C},
   *     {@code CRC32}, {@code SHA1}, {@code SHA256}, {@code CRC64NVME}), or null when the upload
   *     has no checksums
   * @param checksum the part's checksum as S3 headers carry it (base64), or null; completing the
   *     upload repeats it
   * @throws IllegalArgumentException if the number is below 1, or only one of algorithm and
   *     checksum is given
   */
  public UploadedPart(
      int number, String etag, long size, String checksumAlgorithm, String checksum) {
    if (number < 1) {
      throw new IllegalArgumentException("part numbers start at 1, got " + number);
    }
    if ((checksumAlgorithm == null) != (checksum == null)) {
      throw new IllegalArgumentException("a part checksum needs both its algorithm and its value");
    }
    this.number = number;
    this.etag = Objects.requireNonNull(etag, "etag");
    this.size = size;
    this.checksumAlgorithm = checksumAlgorithm;
    this.checksum = checksum;
  }

  /**
   * @return the part number
   */
  public int number() {
    return number;
  }

  /**
   * @return the etag the store returned
   */
  public String etag() {
    return etag;
  }

  /**
   * @return the size in bytes
   */
  public long size() {
    return size;
  }

  /**
   * @return the S3 name of the part checksum's algorithm, or null when it has none
   */
  public String checksumAlgorithm() {
    return checksumAlgorithm;
  }

  /**
   * @return the part's checksum (base64), or null when it was uploaded without one
   */
  public String checksum() {
    return checksum;
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
        && Objects.equals(checksumAlgorithm, p.checksumAlgorithm)
        && Objects.equals(checksum, p.checksum);
  }

  @Override
  public int hashCode() {
    return Objects.hash(number, etag, size, checksumAlgorithm, checksum);
  }

  @Override
  public String toString() {
    return "part "
        + number
        + " ("
        + size
        + " bytes, etag "
        + etag
        + (checksum == null ? "" : ", " + checksumAlgorithm + " " + checksum)
        + ")";
  }
}
