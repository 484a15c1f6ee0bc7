package dev.dtap.fs.spi;

import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;

/**
 * Lets one extension find, through a filesystem, the object another extension (or itself) created
 * for that filesystem's tap: the committers find their per-tap store and the magic files a task
 * wrote through the output hook they registered, without knowing fs-core's classes.
 *
 * <p>The dtap filesystem implements this interface; the objects it returns are those created by the
 * tap's {@link ReadCacheFactory}, {@link LocalityResolverFactory} and {@link OutputHookFactory}
 * factories, and they live as long as the filesystem. Thread-safe.
 */
public interface TapExtensions {
  /**
   * The object created for this filesystem's tap that is an instance of a type.
   *
   * @param type the type asked for (usually an extension's own interface or class)
   * @param <T> the type
   * @return the first such object, or empty when no extension created one for this tap
   */
  <T> Optional<T> tapExtension(Class<T> type);

  /**
   * The object of a type created for the tap a filesystem serves.
   *
   * @param fs any filesystem
   * @param type the type asked for
   * @param <T> the type
   * @return the object; empty when {@code fs} is not a dtap filesystem or has no such object
   */
  static <T> Optional<T> find(FileSystem fs, Class<T> type) {
    return fs instanceof TapExtensions ? ((TapExtensions) fs).tapExtension(type) : Optional.empty();
  }
}
