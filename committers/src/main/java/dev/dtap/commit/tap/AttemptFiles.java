package dev.dtap.commit.tap;

import dev.dtap.commit.record.JobLayout;
import dev.dtap.commit.record.PendingFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The magic files each task attempt has written through one tap in this JVM, so that task commit
 * (which runs in the task's JVM under MapReduce and Spark) builds its record without listing or
 * reading anything from the store, and so that a file just closed has a status.
 *
 * <p>One instance per tap ({@link CommitTap}); an attempt's entry lives from its first stream until
 * its task commit or abort releases it, or its job's commit or abort in this JVM, so a long-lived
 * JVM (a Spark executor) keeps nothing of the tasks it has finished. Attempts are keyed by job
 * directory and attempt id. Thread-safe.
 */
public final class AttemptFiles {
  /** What one attempt wrote. */
  private static final class Attempt {
    final Map<String, PendingFile> closed = new LinkedHashMap<>();
    final Map<String, Long> closedAt = new HashMap<>();
    int open;
  }

  private final Map<String, Attempt> attempts = new HashMap<>();

  /**
   * @param layout the job's layout
   * @param attempt the attempt id
   * @return the key of an attempt of a job
   */
  public static String key(JobLayout layout, String attempt) {
    return layout.jobDir() + attempt;
  }

  public synchronized void opened(String attemptKey) {
    attempts.computeIfAbsent(attemptKey, k -> new Attempt()).open++;
  }

  /**
   * @param attemptKey the attempt
   * @return whether this JVM holds a stream of the attempt, open or closed, not yet committed
   */
  public synchronized boolean holds(String attemptKey) {
    return attempts.containsKey(attemptKey);
  }

  /**
   * Records a closed stream.
   *
   * @param attemptKey the attempt
   * @param magicPath the path the task wrote, for {@link #status}
   * @param file the pending upload; null if the stream failed and left nothing to commit
   */
  public synchronized void closed(String attemptKey, String magicPath, PendingFile file) {
    Attempt a = attempts.computeIfAbsent(attemptKey, k -> new Attempt());
    a.open = Math.max(0, a.open - 1);
    if (file != null) {
      a.closed.put(magicPath, file);
      a.closedAt.put(magicPath, System.currentTimeMillis());
    }
  }

  /**
   * A file written through the magic path, as the writer sees it.
   *
   * @param attemptKey the attempt
   * @param magicPath the path
   * @return {length, close time}, or null if unknown here
   */
  public synchronized long[] status(String attemptKey, String magicPath) {
    Attempt a = attempts.get(attemptKey);
    if (a == null) {
      return null;
    }
    PendingFile f = a.closed.get(magicPath);
    return f == null ? null : new long[] {f.length(), a.closedAt.get(magicPath)};
  }

  /**
   * @return whether any file of the attempt lies under a magic directory path
   */
  public synchronized boolean hasFilesUnder(String attemptKey, String magicDir) {
    Attempt a = attempts.get(attemptKey);
    if (a == null) {
      return false;
    }
    String prefix = magicDir.endsWith("/") ? magicDir : magicDir + "/";
    for (String p : a.closed.keySet()) {
      if (p.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Takes the files of an attempt for its task commit, releasing the attempt's entry.
   *
   * @param attemptKey the attempt
   * @return the files, or null when this JVM holds no stream of the attempt
   * @throws IOException if a stream of the attempt is still open (the entry stays)
   */
  public synchronized List<PendingFile> take(String attemptKey) throws IOException {
    Attempt a = attempts.get(attemptKey);
    if (a == null) {
      return null;
    }
    if (a.open > 0) {
      throw new IOException(
          "Cannot commit task attempt: "
              + a.open
              + " of its output streams are still open; close them first");
    }
    attempts.remove(attemptKey);
    // a file written twice by the attempt keeps only its last upload; the journal has the others
    Map<String, PendingFile> byKey = new LinkedHashMap<>();
    for (PendingFile f : a.closed.values()) {
      byKey.put(f.key(), f);
    }
    return new ArrayList<>(byKey.values());
  }

  /** Forgets an attempt (task abort). */
  public synchronized void release(String attemptKey) {
    attempts.remove(attemptKey);
  }

  /**
   * Forgets every attempt of a job (job commit, abort or cleanup in this JVM): attempts that
   * neither committed nor aborted, such as those of a task that died, leave nothing behind.
   *
   * @param layout the job's layout
   */
  public synchronized void releaseJob(JobLayout layout) {
    attempts.keySet().removeIf(k -> k.startsWith(layout.jobDir()));
  }

  /**
   * @return the attempts this JVM holds state for, for tests of what is left behind
   */
  public synchronized int size() {
    return attempts.size();
  }
}
