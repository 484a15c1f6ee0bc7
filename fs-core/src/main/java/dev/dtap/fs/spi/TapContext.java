package dev.dtap.fs.spi;

import dev.dtap.fs.config.TapConfig;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * What an extension (read cache, locality resolver, output hook) sees of one tap: its settings, its
 * backend filesystem and the translation between {@code dtap://} paths and backend paths.
 *
 * <p>Implementations are thread-safe. The backend belongs to the tap: extensions use it but never
 * close it.
 */
public interface TapContext {
  /**
   * @return the tap's parsed settings
   */
  TapConfig config();

  /**
   * @return the site configuration dtap was initialised with (extensions read their keys here)
   */
  Configuration siteConfiguration();

  /**
   * @return the private configuration of this tap's backend, with the tap's overrides applied
   */
  Configuration backendConfiguration();

  /**
   * @return the tap's backend filesystem, shared with the tap; never close it
   */
  FileSystem backend();

  /**
   * Translates a qualified {@code dtap://} path of this tap to the backend path, enforcing
   * containment.
   *
   * @param dtapPath a qualified path on this tap
   * @return the backend path
   * @throws org.apache.hadoop.security.AccessControlException if the path leaves the tap root
   * @throws IOException on other translation failures
   */
  Path toBackend(Path dtapPath) throws IOException;

  /**
   * Translates a backend path under this tap's root to its {@code dtap://} path.
   *
   * @param backendPath a path the backend returned
   * @return the qualified dtap path
   * @throws org.apache.hadoop.security.AccessControlException if the path is outside the root
   */
  Path toDtap(Path backendPath) throws IOException;

  /**
   * Rewrites an exception an extension met on this tap's backend, and its causes, so that it speaks
   * {@code dtap://} and shows neither the backend's URI nor its servers, as the tap's own errors
   * do. An extension calls it on whatever it lets out to the job.
   *
   * @param e an exception from the backend or the extension's own store client
   * @return {@code e} when it shows nothing of the backend, else a copy of the same class (or of
   *     its nearest standard ancestor) with rewritten messages, the same stack and causes
   */
  default IOException hideBackend(IOException e) {
    return e;
  }

  /**
   * Where extensions publish counters so that they appear in the filesystem's IOStatistics.
   *
   * @param source a live statistics source; its counters are merged into the tap's
   */
  void addStatisticsSource(IOStatisticsSource source);

  /**
   * Another extension of this tap, found by type: a read cache asks for the tap's {@link
   * LocalityResolver} to learn which host owns a block. Ask at use, not at creation: extensions are
   * created one after the other.
   *
   * @param type the type asked for
   * @param <T> the type
   * @return the tap's extension of that type, or empty
   */
  default <T> Optional<T> extension(Class<T> type) {
    return Optional.empty();
  }
}
