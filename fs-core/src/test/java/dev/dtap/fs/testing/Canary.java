package dev.dtap.fs.testing;

/**
 * Secret values for tests. Every secret a test configures contains {@link #MARKER}; after the test
 * run the build scans every test report and log for the marker and fails if it appears, so a secret
 * printed anywhere (log line, exception message, toString) cannot go unnoticed.
 */
public final class Canary {
  /** The marker the build-wide scan looks for; never print it on purpose. */
  public static final String MARKER = "dtapCanary7Q";

  private Canary() {}

  /**
   * A secret value carrying the marker.
   *
   * @param label distinguishes secrets in one test
   * @return the secret
   */
  public static String secret(String label) {
    return MARKER + "-" + label + "-s3cr3t";
  }
}
