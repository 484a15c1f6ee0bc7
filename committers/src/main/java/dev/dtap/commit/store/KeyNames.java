package dev.dtap.commit.store;

import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.Path;

/**
 * Names store keys the way users see them, as {@code dtap://} paths of the tap: messages, logs and
 * {@code _SUCCESS} never show the backend's bucket or URI. Immutable and thread-safe.
 */
public final class KeyNames {
  private final TapContext tap;

  /**
   * @param tap the tap whose root the keys live under
   */
  public KeyNames(TapContext tap) {
    this.tap = tap;
  }

  /**
   * The dtap path of a key.
   *
   * @param key a key under the tap's root
   * @return the path
   * @throws IOException if the key lies outside the tap's root
   */
  public Path path(String key) throws IOException {
    URI root = tap.config().root();
    return tap.toDtap(new Path(root.getScheme(), root.getAuthority(), "/" + key));
  }

  /**
   * The dtap path of a key for a message; a key outside the tap (which no committer writes) is
   * shown relative to the tap rather than with the backend's URI.
   *
   * @param key a key
   * @return the path as text
   */
  public String display(String key) {
    try {
      return path(key).toString();
    } catch (IOException e) {
      return root() + "(outside the tap root) " + key;
    }
  }

  /**
   * @return the tap's root, {@code dtap://<tap>/}
   */
  public String root() {
    return "dtap://" + tap.config().name() + "/";
  }
}
