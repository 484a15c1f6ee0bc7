package dev.dtap.commit.job;

import dev.dtap.commit.config.CommitterConfig;
import dev.dtap.commit.record.CommitIntent;
import dev.dtap.commit.record.JobLayout;
import dev.dtap.commit.record.JournalEntry;
import dev.dtap.commit.record.TaskRecord;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.ObjectInfo;
import dev.dtap.commit.tap.CommitTap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One job's commit data on one destination: the store, the layout of the job's directory, the job
 * id and the settings. Immutable.
 */
public final class CommitContext {
  private static final Logger LOG = LoggerFactory.getLogger(CommitContext.class);

  /** The most keys one bulk delete takes. */
  private static final int DELETE_BATCH = 1000;

  private final CommitTap tap;
  private final MultipartStore store;
  private final JobLayout layout;
  private final String jobId;
  private final Path dest;
  private final CommitterConfig config;
  final String committer;

  public CommitContext(
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
  public CommitContext forJob(String uuid) {
    return new CommitContext(tap, store, layout.forJob(uuid), jobId, dest, config, committer);
  }

  /**
   * @return the tap the destination is on
   */
  public CommitTap tap() {
    return tap;
  }

  /**
   * @return the layout of the job's directory on the store
   */
  public JobLayout layout() {
    return layout;
  }

  /**
   * @return the job's Hadoop id
   */
  public String jobId() {
    return jobId;
  }

  /**
   * @return the job's destination
   */
  public Path dest() {
    return dest;
  }

  /**
   * @return the committer settings of the job
   */
  public CommitterConfig config() {
    return config;
  }

  public MultipartStore store() {
    return store;
  }

  /**
   * @return the job's commit intent, if job commit has begun
   */
  public Optional<CommitIntent> intent() throws IOException {
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
  public TaskRecord record(String key) throws IOException {
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
  public boolean abortJournaled(String entryKey) throws IOException {
    Optional<byte[]> data = store().get(entryKey);
    if (!data.isPresent()) {
      return false;
    }
    JournalEntry e = JournalEntry.decode(data.get(), where(entryKey));
    return store().abort(e.key(), e.uploadId());
  }

  /**
   * @return the key a journal entry names, or empty if the entry is gone
   */
  Optional<String> journaledKey(String entryKey) throws IOException {
    Optional<byte[]> data = store().get(entryKey);
    if (!data.isPresent()) {
      return Optional.empty();
    }
    return Optional.of(JournalEntry.decode(data.get(), where(entryKey)).key());
  }

  /**
   * Aborts every upload pending at a key of a task that had more than one attempt, but those to
   * keep. An attempt killed between its initiate and its journal entry left an upload no journal
   * names; its task's other attempts write the same keys (file names are the task's, not the
   * attempt's, in MapReduce and Spark), so it is found at them, by a listing of that one key.
   *
   * @param key the key
   * @param keep upload ids not to abort (the winning attempt's, while it may still be completing)
   * @return how many uploads were aborted
   * @throws IOException if the listing or an abort fails
   */
  long abortPendingAt(String key, Set<String> keep) throws IOException {
    long aborted = 0;
    for (String id : store().pendingUploads(key)) {
      if (!keep.contains(id) && store().abort(key, id)) {
        LOG.info("Aborted upload {} of {}, left by an attempt of its task", id, where(key));
        aborted++;
      }
    }
    return aborted;
  }

  /**
   * Deletes everything under the job's directory, after aborting what is pending at each key whose
   * initiate was sent more than once ({@link JobLayout#resentDir()}). By the time a job is
   * committed or aborted its own uploads of those keys are completed or aborted, so an upload still
   * pending there was started by an earlier send whose answer was lost, and nobody else knows its
   * id.
   */
  void deleteJobDir() throws IOException {
    String resent = layout.resentDir();
    deleteUnder(
        layout.jobDir(),
        key -> {
          // a marker is listed, and acted on, before the batch that holds it is deleted
          if (key.startsWith(resent)) {
            abortUnknownUploads(key);
          }
          return false;
        });
  }

  /**
   * Aborts the uploads pending at a key a marker names. A failure leaves an upload for the bucket's
   * lifecycle rule and is logged, never failing a job whose output is complete.
   */
  private void abortUnknownUploads(String marker) {
    String key = null;
    try {
      Optional<byte[]> named = store().get(marker);
      if (!named.isPresent()) {
        return;
      }
      key = new String(named.get(), StandardCharsets.UTF_8);
      for (String id : store().pendingUploads(key)) {
        if (store().abort(key, id)) {
          LOG.info("Aborted upload {} of {}, started by an initiate sent twice", id, where(key));
        }
      }
    } catch (IOException e) {
      LOG.warn(
          "Could not abort what an initiate sent twice left pending at {}; the bucket's lifecycle"
              + " rule for incomplete uploads will: {}",
          key == null ? where(marker) : where(key),
          e.toString());
    }
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
    List<String> batch = new ArrayList<>();
    RemoteIterator<ObjectInfo> it = store().list(prefix);
    while (it.hasNext()) {
      String key = it.next().key();
      if (skip.test(key)) {
        continue;
      }
      batch.add(key);
      if (batch.size() == DELETE_BATCH) {
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
  public String where(String key) {
    return tap.names().display(key);
  }

  /**
   * @return the path part of a key's dtap path, for messages and {@code _SUCCESS} file names
   */
  public String displayPath(String key) {
    try {
      return tap.names().path(key).toUri().getPath();
    } catch (IOException e) {
      return "/" + key;
    }
  }
}
