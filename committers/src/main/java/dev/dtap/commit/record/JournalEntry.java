package dev.dtap.commit.record;

import java.io.IOException;

/**
 * One line of a job's journal: an upload that was started, written before any of its data is sent
 * so that aborts and recovery can always find it. Immutable.
 */
public final class JournalEntry {
  private final String key;
  private final String uploadId;
  private final String attempt;
  private final long created;

  public JournalEntry(String key, String uploadId, String attempt, long created) {
    this.key = key;
    this.uploadId = uploadId;
    this.attempt = attempt;
    this.created = created;
  }

  public String key() {
    return key;
  }

  public String uploadId() {
    return uploadId;
  }

  String attempt() {
    return attempt;
  }

  long created() {
    return created;
  }

  public byte[] encode() throws IOException {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeNumberField("version", 1);
          g.writeStringField("key", key);
          g.writeStringField("uploadId", uploadId);
          g.writeStringField("attempt", attempt);
          g.writeNumberField("created", created);
          g.writeEndObject();
        });
  }

  public static JournalEntry decode(byte[] data, String source) throws IOException {
    Json.Fields f = new Json.Fields(Json.parse(data, source), source);
    return new JournalEntry(
        f.string("key"), f.string("uploadId"), f.string("attempt"), f.number("created"));
  }

  @Override
  public String toString() {
    return "upload " + uploadId + " of " + key + " by " + attempt;
  }
}
