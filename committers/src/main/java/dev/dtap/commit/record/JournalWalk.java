package dev.dtap.commit.record;

import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.ObjectInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Walks a job's journal one task at a time, in the store's key order, so that job commit holds only
 * one task's entries in memory however large the job. Not thread-safe.
 */
public final class JournalWalk implements RemoteIterator<JournalWalk.TaskJournal> {
  /** The journal entries of one task, by attempt. */
  public static final class TaskJournal {
    public final String taskId;

    /** attempt id to the keys of its entries, in key order */
    public final Map<String, List<String>> entries = new LinkedHashMap<>();

    TaskJournal(String taskId) {
      this.taskId = taskId;
    }

    public int size() {
      int n = 0;
      for (List<String> l : entries.values()) {
        n += l.size();
      }
      return n;
    }

    /**
     * @return whether the journal shows more than one attempt of the task (entries of several
     *     attempts, or of an attempt numbered above 0): an earlier one may have been killed between
     *     an initiate and its entry
     */
    public boolean hadSeveralAttempts() {
      if (entries.size() > 1) {
        return true;
      }
      for (String attempt : entries.keySet()) {
        if (JobLayout.isLaterAttempt(attempt)) {
          return true;
        }
      }
      return false;
    }
  }

  private final RemoteIterator<ObjectInfo> listing;
  private final String root;
  private TaskJournal next;
  private String[] pending;

  public JournalWalk(MultipartStore store, String journalRoot) throws IOException {
    this.listing = store.list(journalRoot);
    this.root = journalRoot;
  }

  /** Splits {@code <task>/<attempt>/<entry>}; null for anything else. */
  private String[] split(String key) {
    String[] p = key.substring(root.length()).split("/");
    return p.length == 3 && !p[0].isEmpty() && !p[1].isEmpty() && !p[2].isEmpty()
        ? new String[] {p[0], p[1], key}
        : null;
  }

  @Override
  public boolean hasNext() throws IOException {
    if (next != null) {
      return true;
    }
    TaskJournal t = null;
    while (true) {
      String[] e = pending;
      pending = null;
      if (e == null) {
        if (!listing.hasNext()) {
          break;
        }
        e = split(listing.next().key());
        if (e == null) {
          continue;
        }
      }
      if (t == null) {
        t = new TaskJournal(e[0]);
      } else if (!t.taskId.equals(e[0])) {
        pending = e;
        break;
      }
      t.entries.computeIfAbsent(e[1], k -> new ArrayList<>()).add(e[2]);
    }
    next = t;
    return next != null;
  }

  @Override
  public TaskJournal next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException("journal walked to the end");
    }
    TaskJournal t = next;
    next = null;
    return t;
  }
}
