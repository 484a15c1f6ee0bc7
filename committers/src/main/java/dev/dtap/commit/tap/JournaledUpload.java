package dev.dtap.commit.tap;

import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.commit.record.JobLayout;
import dev.dtap.commit.record.JournalEntry;
import dev.dtap.commit.store.InitiatedUpload;
import dev.dtap.commit.store.MultipartStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A multipart upload started the way the journal requires: its id is recorded in the job's journal
 * before any of its data is sent, so that aborts and recovery always find it. Immutable.
 */
public final class JournaledUpload {
  /** S3's limit on the parts of one upload. */
  public static final int MAX_PARTS = 10_000;

  private final String uploadId;
  private final String entryName;

  private JournaledUpload(String uploadId, String entryName) {
    this.uploadId = uploadId;
    this.entryName = entryName;
  }

  /**
   * Initiates an upload and journals it.
   *
   * @param store the destination store
   * @param layout the job's layout, which names the journal
   * @param key the final key
   * @param attempt the task attempt the upload belongs to
   * @param steps told when the upload is initiated, before its entry is written
   * @return the journaled upload
   * @throws IOException if either request fails; an upload whose entry could not be written is
   *     aborted (a failed abort is attached as suppressed)
   */
  public static JournaledUpload start(
      MultipartStore store, JobLayout layout, String key, String attempt, CommitSteps steps)
      throws IOException {
    // an engine kills an attempt by interrupting it, and an interrupt in mid-initiate or before the
    // entry is written would leave an upload no journal names: the pair runs where none reaches it
    return Uninterrupted.call(() -> startNow(store, layout, key, attempt, steps));
  }

  private static JournaledUpload startNow(
      MultipartStore store, JobLayout layout, String key, String attempt, CommitSteps steps)
      throws IOException {
    InitiatedUpload upload = store.initiate(key);
    String id = upload.uploadId();
    String name = JobLayout.newEntryName();
    try {
      // a process killed here leaves an upload no journal names: the job's end finds it at this
      // key when another attempt of the task writes it (JobCommit, JobAbort)
      steps.reached(CommitSteps.UPLOAD_INITIATED, 0);
      if (upload.resent()) {
        // an earlier send may have started an upload nobody knows: the job's end aborts it
        store.put(layout.resentDir() + name, key.getBytes(StandardCharsets.UTF_8));
      }
      store.put(
          layout.journalDir(attempt) + name,
          new JournalEntry(key, id, attempt, System.currentTimeMillis()).encode());
    } catch (IOException e) {
      try {
        store.abort(key, id);
      } catch (IOException x) {
        e.addSuppressed(x);
      }
      throw e;
    }
    return new JournaledUpload(id, name);
  }

  /**
   * @param what the file, for the message
   * @return the error for a file that needs more than {@link #MAX_PARTS} parts
   */
  public static IOException tooManyParts(String what) {
    return new IOException(
        what + " needs more than " + MAX_PARTS + " parts; raise " + CommitterKeys.PART_SIZE.name());
  }

  public String uploadId() {
    return uploadId;
  }

  public String entryName() {
    return entryName;
  }
}
