package dev.dtap.commit.job;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a job commit did: files and bytes made visible, uploads aborted, and the first file names
 * for {@code _SUCCESS}. Thread-safe while commit runs; read once it is over.
 */
final class CommitSummary {
  static final int FILENAME_LIMIT = 100;

  final AtomicLong files = new AtomicLong();
  final AtomicLong bytes = new AtomicLong();
  final AtomicLong aborted = new AtomicLong();
  final AtomicLong alreadyCompleted = new AtomicLong();
  final AtomicLong tasks = new AtomicLong();
  private final List<String> filenames = new ArrayList<>();

  synchronized void filename(String name) {
    if (filenames.size() < FILENAME_LIMIT) {
      filenames.add(name);
    }
  }

  synchronized List<String> filenames() {
    List<String> l = new ArrayList<>(filenames);
    Collections.sort(l);
    return l;
  }

  @Override
  public String toString() {
    return files
        + " files ("
        + bytes
        + " bytes) from "
        + tasks
        + " tasks, "
        + aborted
        + " uploads aborted";
  }
}
