package dev.dtap.commit;

import dev.dtap.commit.store.MultipartStore;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * One job's commit data on one destination: the store, the layout of the job's directory, the job
 * id and the settings. Immutable.
 */
final class CommitContext {
  final CommitTap tap;
  private final MultipartStore store;
  final JobLayout layout;
  final String jobId;
  final Path dest;
  final CommitterConfig config;
  final String committer;

  CommitContext(
      CommitTap tap,
      MultipartStore store,
      JobLayout layout,
      String jobId,
      Path dest,
      CommitterConfig config,
      String committer) {
    this.tap = tap;
    this.store = store;
    this.layout = layout;
    this.jobId = jobId;
    this.dest = dest;
    this.config = config;
    this.committer = committer;
  }

  /**
   * @return this context for the job known by {@code uuid} on the same destination
   */
  CommitContext forJob(String uuid) {
    return new CommitContext(tap, store, layout.forJob(uuid), jobId, dest, config, committer);
  }

  MultipartStore store() {
    return store;
  }

  /**
   * @return the job's commit intent, if job commit has begun
   */
  Optional<CommitIntent> intent() throws IOException {
    Optional<byte[]> data = store().get(layout.intent());
    if (!data.isPresent()) {
      return Optional.empty();
    }
    CommitIntent i = CommitIntent.decode(data.get(), where(layout.intent()));
    if (!i.jobUuid().equals(layout.uuid())) {
      throw new IOException(
          "Commit intent "
              + where(layout.intent())
              + " belongs to job "
              + i.jobUuid()
              + ", not "
              + layout.uuid());
    }
    return Optional.of(i);
  }

  /** Reads a task record and checks that it belongs to this job. */
  TaskRecord record(String key) throws IOException {
    byte[] data =
        store()
            .get(key)
            .orElseThrow(
                () ->
                    new java.io.FileNotFoundException(
                        "Task commit record " + where(key) + " has vanished"));
    TaskRecord r = TaskRecord.decode(data, where(key));
    if (!r.jobUuid().equals(layout.uuid())) {
      throw new IOException(
          "Task commit record "
              + where(key)
              + " belongs to job "
              + r.jobUuid()
              + ", not "
              + layout.uuid());
    }
    return r;
  }

  /** Aborts the upload a journal entry names; a missing entry or upload is already dealt with. */
  boolean abortJournaled(String entryKey) throws IOException {
    Optional<byte[]> data = store().get(entryKey);
    if (!data.isPresent()) {
      return false;
    }
    JournalEntry e = JournalEntry.decode(data.get(), where(entryKey));
    return store().abort(e.key(), e.uploadId());
  }

  /** Deletes everything under the job's directory. */
  void deleteJobDir() throws IOException {
    deleteUnder(layout.jobDir(), key -> false);
  }

  /**
   * Deletes the objects under a prefix, listing them and deleting in batches of 1,000 (the most one
   * bulk delete takes).
   *
   * @param prefix the key prefix
   * @param skip keys to leave
   * @throws IOException if listing or deleting fails
   */
  void deleteUnder(String prefix, java.util.function.Predicate<String> skip) throws IOException {
    java.util.List<String> batch = new java.util.ArrayList<>();
    org.apache.hadoop.fs.RemoteIterator<dev.dtap.commit.store.ObjectInfo> it = store().list(prefix);
    while (it.hasNext()) {
      String key = it.next().key();
      if (skip.test(key)) {
        continue;
      }
      batch.add(key);
      if (batch.size() == 1000) {
        store().delete(batch);
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      store().delete(batch);
    }
  }

  /**
   * @return the dtap path of a key, for messages
   */
  String where(String key) {
    return tap.names().display(key);
  }

  /**
   * @return the path part of a key's dtap path, for messages and {@code _SUCCESS} file names
   */
  String displayPath(String key) {
    try {
      return tap.names().path(key).toUri().getPath();
    } catch (IOException e) {
      return "/" + key;
    }
  }
}
