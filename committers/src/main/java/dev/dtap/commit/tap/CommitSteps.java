package dev.dtap.commit.tap;

import java.io.IOException;

/**
 * Named points in job commit, and the one point of a task's upload between its initiate and its
 * journal entry, where tests inject failures: a listener may throw (a failed commit) or kill the
 * JVM (a crashed driver or task). Each tap has its own ({@link CommitTap#steps()}), so a listener
 * sees the commits of that tap's filesystem only. No listener is installed in production.
 * Thread-safe.
 */
public final class CommitSteps {
  public static final String LISTED = "listed";
  public static final String INTENT_WRITTEN = "intent-written";
  public static final String REPLACED = "replaced";
  public static final String COMPLETED = "completed";
  public static final String SUCCESS_WRITTEN = "success-written";
  public static final String CLEANED = "cleaned";

  /** A task's upload was initiated; its journal entry is not written yet. */
  public static final String UPLOAD_INITIATED = "upload-initiated";

  /** Called at each step. */
  public interface Listener {
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
  public void setListener(Listener l) {
    listener = l;
  }

  /**
   * @param step the step's name
   * @param count for {@link #COMPLETED}, how many files are complete so far; else 0
   * @throws IOException what the listener throws
   */
  public void reached(String step, long count) throws IOException {
    Listener l = listener;
    if (l != null) {
      l.reached(step, count);
    }
  }
}
