package dev.dtap.commit.record;

import dev.dtap.commit.config.ConflictMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The decision to commit a job, written before job commit changes anything visible: which record of
 * each task won, and, for the {@code replace} conflict mode, whether the old output is already
 * gone. Once it exists the job is committed forward (by a retried job commit or by recovery);
 * before it exists the job can only be aborted. Immutable.
 */
public final class CommitIntent {
  /** One committed task: the record that is used. */
  public static final class Winner {
    public final String taskId;
    public final String recordKey;

    public Winner(String taskId, String recordKey) {
      this.taskId = taskId;
      this.recordKey = recordKey;
    }
  }

  private final String jobUuid;
  private final String jobId;
  private final long created;
  private final ConflictMode conflictMode;
  private final boolean replaced;
  private final Boolean partitioned;
  private final List<Winner> winners;

  /**
   * @param jobUuid the job's unique id
   * @param jobId the job id the decision was made under
   * @param created when
   * @param conflictMode what job commit does with existing output
   * @param partitioned whether the conflict mode applies per partition the job writes (for {@code
   *     replace}: only those partitions are replaced); null when an older release wrote the intent
   *     without saying
   * @param replaced whether the replace mode's deletion has finished
   * @param winners the committed record of each task
   */
  public CommitIntent(
      String jobUuid,
      String jobId,
      long created,
      ConflictMode conflictMode,
      Boolean partitioned,
      boolean replaced,
      List<Winner> winners) {
    this.jobUuid = jobUuid;
    this.jobId = jobId;
    this.created = created;
    this.conflictMode = conflictMode;
    this.partitioned = partitioned;
    this.replaced = replaced;
    this.winners = Collections.unmodifiableList(new ArrayList<>(winners));
  }

  public String jobUuid() {
    return jobUuid;
  }

  public String jobId() {
    return jobId;
  }

  long created() {
    return created;
  }

  public ConflictMode conflictMode() {
    return conflictMode;
  }

  /**
   * @return whether the conflict mode applies per partition; null when the intent does not say
   *     (written by a release before this field: the committer's setting decides)
   */
  public Boolean partitioned() {
    return partitioned;
  }

  /**
   * @return whether the replace mode's deletion of old output has finished
   */
  public boolean replaced() {
    return replaced;
  }

  public List<Winner> winners() {
    return winners;
  }

  public CommitIntent withReplaced() {
    return new CommitIntent(jobUuid, jobId, created, conflictMode, partitioned, true, winners);
  }

  public byte[] encode() throws IOException {
    return Json.write(
        g -> {
          g.writeStartObject();
          // version 2 names the layout: a release that reads only version 1 would replace the
          // whole destination of a job that replaces partitions, so it must not read this one
          g.writeNumberField("version", partitioned == null ? 1 : 2);
          g.writeStringField("jobUuid", jobUuid);
          g.writeStringField("jobId", jobId);
          g.writeNumberField("created", created);
          g.writeStringField("conflictMode", conflictMode.configValue());
          if (partitioned != null) {
            g.writeStringField("layout", partitioned ? "partitioned" : "directory");
          }
          g.writeBooleanField("replaced", replaced);
          g.writeArrayFieldStart("tasks");
          for (Winner w : winners) {
            g.writeStartObject();
            g.writeStringField("task", w.taskId);
            g.writeStringField("record", w.recordKey);
            g.writeEndObject();
          }
          g.writeEndArray();
          g.writeEndObject();
        });
  }

  public static CommitIntent decode(byte[] data, String source) throws IOException {
    Json.Fields f = new Json.Fields(Json.parse(data, source), source);
    long version = f.number("version");
    if (version > 2) {
      throw new IOException(
          "Commit intent "
              + source
              + " has version "
              + version
              + ", newer than this dtap reads (2);"
              + " commit or recover the job with a newer dtap");
    }
    String layout = f.optString("layout");
    List<Winner> winners = new ArrayList<>();
    for (Json.Fields w : f.objects("tasks")) {
      winners.add(new Winner(w.string("task"), w.string("record")));
    }
    return new CommitIntent(
        f.string("jobUuid"),
        f.string("jobId"),
        f.number("created"),
        ConflictMode.parse(f.string("conflictMode"), source),
        layout == null ? null : layout.equals("partitioned"),
        f.bool("replaced"),
        winners);
  }
}
