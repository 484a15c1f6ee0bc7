package dev.dtap.commit.s3;

import dev.dtap.commit.store.PartData;
import java.io.IOException;
import java.util.Base64;
import java.util.Locale;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.checksums.SdkChecksum;
import software.amazon.awssdk.checksums.spi.ChecksumAlgorithm;

/**
 * The checksum an upload's parts carry when it was initiated with one (S3A's {@code
 * fs.s3a.create.checksum.algorithm}, or CRC32C for unsigned part payloads), computed with the AWS
 * SDK's own implementation of the algorithm. Immutable and thread-safe.
 */
final class PartChecksum {
  private final ChecksumAlgorithm algorithm;

  private PartChecksum(ChecksumAlgorithm algorithm) {
    this.algorithm = algorithm;
  }

  /**
   * The checksum of an S3 algorithm name.
   *
   * @param s3Name {@code CRC32C}, {@code CRC32}, {@code SHA1}, {@code SHA256} or {@code CRC64NVME}
   * @return the checksum
   * @throws IllegalArgumentException if the SDK does not know the algorithm
   */
  static PartChecksum of(String s3Name) {
    String n = s3Name.toUpperCase(Locale.ROOT);
    for (ChecksumAlgorithm a :
        new ChecksumAlgorithm[] {
          DefaultChecksumAlgorithm.CRC32C,
          DefaultChecksumAlgorithm.CRC32,
          DefaultChecksumAlgorithm.SHA1,
          DefaultChecksumAlgorithm.SHA256,
          DefaultChecksumAlgorithm.CRC64NVME
        }) {
      if (a.algorithmId().equals(n)) {
        return new PartChecksum(a);
      }
    }
    throw new IllegalArgumentException("Unknown S3 checksum algorithm " + s3Name);
  }

  /**
   * @return the S3 name, such as {@code CRC32C}
   */
  String name() {
    return algorithm.algorithmId();
  }

  /**
   * @return the request and response header, such as {@code x-amz-checksum-crc32c}
   */
  String header() {
    return "x-amz-checksum-" + name().toLowerCase(Locale.ROOT);
  }

  /**
   * @return the element of a part in a complete request's body, such as {@code ChecksumCRC32C}
   */
  String element() {
    return "Checksum" + name();
  }

  /**
   * @param data a part
   * @return its checksum as S3 carries it (base64)
   * @throws IOException if the part cannot be read
   */
  String of(PartData data) throws IOException {
    SdkChecksum c = SdkChecksum.forAlgorithm(algorithm);
    data.update(c);
    return Base64.getEncoder().encodeToString(c.getChecksumBytes());
  }
}
