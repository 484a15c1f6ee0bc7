package dev.dtap.commit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The magic files each task attempt has written in this JVM, so that task commit (which runs in the
 * task's JVM under MapReduce and Spark) builds its record without listing or reading anything from
 * the store, and so that a file just closed has a status. When task commit runs elsewhere it falls
 * back to the journal.
 *
 * <p>Keyed by the job directory and the attempt. Thread-safe.
 */
final class UploadTracker {
  static final UploadTracker INSTANCE = new UploadTracker();

  /** What one attempt wrote. */
  private static final class Attempt {
    final Map<String, PendingFile> closed = new LinkedHashMap<>();
    final Map<String, Long> closedAt = new HashMap<>();
    int open;
    String committedRecord;
  }

  private final Map<String, Attempt> attempts = new HashMap<>();

  static String attemptKey(String store, JobLayout layout, String attempt) {
    return store + "/" + layout.jobDir() + attempt;
  }

  synchronized void opened(String attemptKey) {
    attempts.computeIfAbsent(attemptKey, k -> new Attempt()).open++;
  }

  /**
   * Records a closed file.
   *
   * @param attemptKey the attempt
   * @param magicPath the path the task wrote, for {@link #status}
   * @param file the pending upload; null if the stream failed and wrote nothing
   */
  synchronized void closed(String attemptKey, String magicPath, PendingFile file) {
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
  synchronized long[] status(String attemptKey, String magicPath) {
    Attempt a = attempts.get(attemptKey);
    if (a == null) {
      return null;
    }
    PendingFile f = a.closed.get(magicPath);
    return f == null ? null : new long[] {f.length(), a.closedAt.get(magicPath)};
  }

  /** @return whether any file of the attempt lies under a magic directory path */
  synchronized boolean hasFilesUnder(String attemptKey, String magicDir) {
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
   * The files of an attempt, for its task commit.
   *
   * @param attemptKey the attempt
   * @return the files, or null when this JVM saw no stream of the attempt
   * @throws IOException if a stream of the attempt is still open
   */
  synchronized List<PendingFile> files(String attemptKey) throws IOException {
    Attempt a = attempts.get(attemptKey);
    if (a == null) {
      return null;
    }
    if (a.open > 0) {
      throw new IOException(
          "Cannot commit task attempt: " + a.open + " of its output streams are still open; close them first");
    }
    // a file written twice by the attempt keeps only its last upload; the journal has the others
    Map<String, PendingFile> byKey = new LinkedHashMap<>();
    for (PendingFile f : a.closed.values()) {
      byKey.put(f.key(), f);
    }
    return new ArrayList<>(byKey.values());
  }

  /** Remembers that an attempt committed, so that a repeated task commit does nothing. */
  synchronized void committed(String attemptKey, String recordKey) {
    Attempt a = attempts.computeIfAbsent(attemptKey, k -> new Attempt());
    a.committedRecord = recordKey;
    a.closed.clear(); // long-lived JVMs (Spark executors) run many attempts: keep only the marker
    a.closedAt.clear();
  }

  /** @return the record an attempt committed in this JVM, or null */
  synchronized String committedRecord(String attemptKey) {
    Attempt a = attempts.get(attemptKey);
    return a == null ? null : a.committedRecord;
  }

  synchronized void forget(String attemptKey) {
    attempts.remove(attemptKey);
  }
}
