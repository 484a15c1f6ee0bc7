package dev.dtap.locality;

import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;

/** A source of the cluster's host names. Called only from the membership refresh thread. */
interface MembershipProvider extends Closeable {
  /**
   * Reads the current hosts; may block on the network.
   *
   * @return host names, possibly empty
   * @throws IOException if the source cannot be read
   */
  Collection<String> hosts() throws IOException;

  /**
   * @return what this source is, for logs
   */
  String describe();

  @Override
  default void close() throws IOException {}
}
