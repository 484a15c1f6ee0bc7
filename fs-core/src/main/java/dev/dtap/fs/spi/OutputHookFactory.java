package dev.dtap.fs.spi;

import java.io.IOException;

/**
 * Creates the output hook of a tap: the committers module's magic-path handling. Registered in
 * {@code META-INF/services/dev.dtap.fs.spi.OutputHookFactory}. Every tap gets a hook from every
 * factory on the classpath; on a read-only tap no write ever reaches it, but other extensions can
 * still find it through {@link TapExtensions}.
 */
public interface OutputHookFactory extends ExtensionFactory {
  /**
   * Creates the hook for one tap.
   *
   * @param tap the tap
   * @return the hook; closed when the dtap filesystem closes
   * @throws IOException if it cannot be set up
   */
  OutputHook create(TapContext tap) throws IOException;
}
