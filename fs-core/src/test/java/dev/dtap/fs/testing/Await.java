package dev.dtap.fs.testing;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The one way tests wait for background work they cannot join: poll for a positive condition, with
 * a generous bound that only ends a broken run. A test never sleeps for a fixed time and never
 * asserts how long something took; the build's {@code TestNoSleepInTests} keeps {@code sleep} out
 * of every other test file.
 *
 * <p>Thread-safe (stateless).
 */
public final class Await {
  private static final long POLL_MILLIS = 50;

  private Await() {}

  /**
   * A condition polled until it holds.
   *
   * @param <T> the value it yields
   */
  @FunctionalInterface
  public interface Probe<T> {
    /**
     * @return the value once the condition holds, or null to poll again
     * @throws Exception if probing fails for good
     */
    T poll() throws Exception;
  }

  /**
   * Polls until the condition holds.
   *
   * @param what the condition, for the failure message
   * @param bound how long a broken run may take before it fails
   * @param condition polled every 50 ms
   * @throws AssertionError if the bound passes first
   * @throws Exception what the condition throws
   */
  public static void until(String what, Duration bound, Callable<Boolean> condition)
      throws Exception {
    value(what, bound, () -> Boolean.TRUE.equals(condition.call()) ? Boolean.TRUE : null);
  }

  /**
   * Polls until the probe yields a value.
   *
   * @param what the condition, for the failure message
   * @param bound how long a broken run may take before it fails
   * @param probe polled every 50 ms
   * @param <T> the value
   * @return the first value the probe yields
   * @throws AssertionError if the bound passes first
   * @throws Exception what the probe throws
   */
  public static <T> T value(String what, Duration bound, Probe<T> probe) throws Exception {
    // the bound counts polls, not clock time: it only ends a run that would otherwise hang
    long polls = Math.max(1, bound.toMillis() / POLL_MILLIS);
    for (long poll = 0; ; poll++) {
      T v = probe.poll();
      if (v != null) {
        return v;
      }
      if (poll >= polls) {
        throw new AssertionError(
            "Still waiting, after " + polls + " polls (" + bound + "), for: " + what);
      }
      TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
    }
  }
}
