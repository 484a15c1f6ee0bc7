package dev.dtap.commit;

import java.io.IOException;

/**
 * Named points in job commit, where tests inject failures: a listener may throw (a failed commit)
 * or halt the JVM (a crashed driver). Each tap has its own ({@link CommitTap#steps()}), so a
 * listener sees the commits of that tap's filesystem only. No listener is installed in production.
 * Thread-safe.
 */
final class CommitSteps {
  static final String LISTED = "listed";
  static final String INTENT_WRITTEN = "intent-written";
  static final String REPLACED = "replaced";
  static final String COMPLETED = "completed";
  static final String SUCCESS_WRITTEN = "success-written";
  static final String CLEANED = "cleaned";

  /** Called at each step. */
  interface Listener {
    /**
     * @param step the step's name
     * @param count for {@link #COMPLETED}, how many files are complete so far; else 0
     * @throws IOException to fail job commit at this point
     */
    void reached(String step, long count) throws IOException;
  }

  private volatile Listener listener;

  /**
   * @param l called at each step from now on; null for none
   */
  void setListener(Listener l) {
    listener = l;
  }

  /**
   * @param step the step's name
   * @param count for {@link #COMPLETED}, how many files are complete so far; else 0
   * @throws IOException what the listener throws
   */
  void reached(String step, long count) throws IOException {
    Listener l = listener;
    if (l != null) {
      l.reached(step, count);
    }
  }
}
