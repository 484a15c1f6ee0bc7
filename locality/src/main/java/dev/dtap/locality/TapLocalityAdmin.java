package dev.dtap.locality;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * What an operator's tool sees of one tap's locality: where the cluster membership comes from, how
 * old it is, and which hosts it lists. Found through {@code TapExtensions.find(fs,
 * TapLocalityAdmin.class)} on a dtap filesystem whose tap has locality on.
 *
 * <p>Implementations are thread-safe.
 */
public interface TapLocalityAdmin {
  /**
   * Reads the membership source now and waits for its answer.
   *
   * @param timeout how long to wait
   * @throws IOException if the source cannot be read or does not answer in time; the message names
   *     the source and the reason
   */
  void refreshMembership(Duration timeout) throws IOException;

  /**
   * @return the membership source, e.g. {@code YARN ResourceManager rm:8032} or a hosts file
   */
  String membershipSource();

  /**
   * @return milliseconds since the source last answered, or -1 when it never has in this JVM
   */
  long membershipAgeMillis();

  /**
   * @return the hosts of the current membership, sorted; empty before it is first known
   */
  List<String> hosts();

  /**
   * @return the block size placement uses for files without a backend block size
   */
  long placementBlockSize();
}
