package dev.dtap.fs.config;

import java.io.IOException;

/**
 * A configuration value that dtap refuses. The message names the key and what would be accepted; it
 * never contains the value of a sensitive key.
 */
public final class InvalidConfigurationException extends IOException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message names the key and the accepted values
   */
  public InvalidConfigurationException(String message) {
    super(message);
  }
}
