package dev.dtap.commit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The decision to commit a job, written before job commit changes anything visible: which record
 * of each task won, and, for the {@code replace} conflict mode, whether the old output is already
 * gone. Once it exists the job is committed forward (by a retried job commit or by recovery); before
 * it exists the job can only be aborted. Immutable.
 */
final class CommitIntent {
  /** One committed task: the record that is used. */
  static final class Winner {
    final String taskId;
    final String recordKey;

    Winner(String taskId, String recordKey) {
      this.taskId = taskId;
      this.recordKey = recordKey;
    }
  }

  private final String jobUuid;
  private final String jobId;
  private final long created;
  private final ConflictMode conflictMode;
  private final boolean replaced;
  private final List<Winner> winners;

  CommitIntent(
      String jobUuid,
      String jobId,
      long created,
      ConflictMode conflictMode,
      boolean replaced,
      List<Winner> winners) {
    this.jobUuid = jobUuid;
    this.jobId = jobId;
    this.created = created;
    this.conflictMode = conflictMode;
    this.replaced = replaced;
    this.winners = Collections.unmodifiableList(new ArrayList<>(winners));
  }

  String jobUuid() {
    return jobUuid;
  }

  String jobId() {
    return jobId;
  }

  long created() {
    return created;
  }

  ConflictMode conflictMode() {
    return conflictMode;
  }

  /** @return whether the replace mode's deletion of old output has finished */
  boolean replaced() {
    return replaced;
  }

  List<Winner> winners() {
    return winners;
  }

  CommitIntent withReplaced() {
    return new CommitIntent(jobUuid, jobId, created, conflictMode, true, winners);
  }

  byte[] encode() throws IOException {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeNumberField("version", 1);
          g.writeStringField("jobUuid", jobUuid);
          g.writeStringField("jobId", jobId);
          g.writeNumberField("created", created);
          g.writeStringField("conflictMode", conflictMode.configValue());
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

  static CommitIntent decode(byte[] data, String source) throws IOException {
    Json.Fields f = new Json.Fields(Json.parse(data, source), source);
    List<Winner> winners = new ArrayList<>();
    for (Json.Fields w : f.objects("tasks")) {
      winners.add(new Winner(w.string("task"), w.string("record")));
    }
    return new CommitIntent(
        f.string("jobUuid"),
        f.string("jobId"),
        f.number("created"),
        ConflictMode.parse(f.string("conflictMode"), source),
        f.bool("replaced"),
        winners);
  }
}
