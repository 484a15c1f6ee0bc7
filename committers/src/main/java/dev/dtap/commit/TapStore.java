package dev.dtap.commit;

import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.TapStores;
import dev.dtap.fs.DataTapFileSystem;
import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;

/**
 * A tap together with its multipart store: translates dtap paths to store keys. Immutable.
 */
final class TapStore {
  private final TapContext tap;
  private final MultipartStore store;

  private TapStore(TapContext tap, MultipartStore store) {
    this.tap = tap;
    this.store = store;
  }

  /**
   * The store of a tap, for a committer that needs one.
   *
   * @param fs the dtap filesystem of the destination
   * @param committer the committer's name, for messages
   * @return the tap's store
   * @throws AccessControlException if the tap is read-only
   * @throws IOException if the tap's backend has no multipart store
   */
  static TapStore of(DataTapFileSystem fs, String committer) throws IOException {
    TapContext tap = fs.tapContext();
    if (tap.config().readOnly()) {
      throw new AccessControlException(
          "Cannot commit output to tap '" + tap.config().name() + "': the tap is read-only");
    }
    return new TapStore(
        tap,
        TapStores.forTap(tap)
            .orElseThrow(
                () ->
                    new IOException(
                        "The "
                            + committer
                            + " committer needs a backend with multipart uploads (S3), but tap '"
                            + tap.config().name()
                            + "' is "
                            + tap.config().root().getScheme()
                            + "://; use "
                            + CommitterKeys.NAME.name()
                            + "=file")));
  }

  static TapStore of(TapContext tap, MultipartStore store) {
    return new TapStore(tap, store);
  }

  TapContext tap() {
    return tap;
  }

  MultipartStore store() {
    return store;
  }

  /**
   * The store key of a dtap path of this tap.
   *
   * @param dtapPath a qualified path
   * @return the key, "" for the bucket root
   * @throws IOException if the path leaves the tap
   */
  String key(Path dtapPath) throws IOException {
    String p = tap.toBackend(dtapPath).toUri().getPath();
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }

  /**
   * The dtap path of a store key.
   *
   * @param key a key under the tap root
   * @return the path
   * @throws IOException if the key is outside the tap
   */
  Path path(String key) throws IOException {
    java.net.URI root = tap.config().root();
    return tap.toDtap(new Path(root.getScheme(), root.getAuthority(), "/" + key));
  }
}
