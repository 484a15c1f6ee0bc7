package dev.dtap.commit.job;

import dev.dtap.commit.record.Json;
import dev.dtap.commit.store.StoreStatistics;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;

/**
 * The {@code _SUCCESS} file: JSON in the format of Hadoop's {@code SuccessData} (the S3A and
 * manifest committers' marker, same field names), so tools that read theirs read ours, plus dtap's
 * own fields: the job directory, totals, and the store requests made by this JVM's committers.
 */
public final class SuccessMarker {
  public static final String NAME = "org.apache.hadoop.fs.s3a.commit.files.SuccessData/1";

  private SuccessMarker() {}

  static void write(CommitContext c, CommitSummary s, long durationMs) throws IOException {
    long now = System.currentTimeMillis();
    SimpleDateFormat fmt = new SimpleDateFormat("EEE MMM dd HH:mm:ss zzz yyyy", Locale.ROOT);
    fmt.setTimeZone(TimeZone.getTimeZone("UTC"));
    StoreStatistics stats = c.store().statistics();
    byte[] json =
        Json.write(
            g -> {
              g.writeStartObject();
              g.writeStringField("name", NAME);
              g.writeBooleanField("success", true);
              g.writeNumberField("timestamp", now);
              g.writeStringField("date", fmt.format(new Date(now)));
              g.writeStringField("hostname", hostname());
              g.writeStringField("committer", "dtap-" + c.committer);
              g.writeStringField("description", "dtap " + c.committer + " committer");
              g.writeStringField("jobId", c.layout().uuid());
              g.writeStringField(
                  "jobIdSource", c.layout().uuid().equals(c.jobId()) ? "JobID" : "uuid");
              g.writeObjectFieldStart("metrics");
              g.writeNumberField("committer_files_committed", s.files.get());
              g.writeNumberField("committer_bytes_committed", s.bytes.get());
              g.writeNumberField("committer_tasks_committed", s.tasks.get());
              g.writeNumberField("committer_uploads_aborted", s.aborted.get());
              g.writeNumberField("committer_commit_job_ms", durationMs);
              g.writeEndObject();
              g.writeObjectFieldStart("diagnostics");
              g.writeStringField("dtap.journal", c.where(c.layout().jobDir()));
              g.writeStringField("dtap.conflict-mode", c.config().conflictMode().configValue());
              g.writeStringField("dtap.threads", Integer.toString(c.config().threads()));
              g.writeEndObject();
              g.writeArrayFieldStart("filenames");
              for (String f : s.filenames()) {
                g.writeString(f);
              }
              g.writeEndArray();
              g.writeObjectFieldStart("iostatistics");
              g.writeObjectFieldStart("counters");
              for (Map.Entry<StoreStatistics.Op, Long> e : stats.snapshot().entrySet()) {
                g.writeNumberField(
                    "store_" + e.getKey().name().toLowerCase(Locale.ROOT), e.getValue());
              }
              g.writeEndObject();
              g.writeObjectFieldStart("gauges");
              g.writeEndObject();
              g.writeObjectFieldStart("minimums");
              g.writeEndObject();
              g.writeObjectFieldStart("maximums");
              g.writeEndObject();
              g.writeObjectFieldStart("meanstatistics");
              g.writeEndObject();
              g.writeEndObject();
              g.writeStringField("state", "SUCCESS");
              g.writeStringField("stage", "committer_commit_job");
              // dtap's own fields
              g.writeStringField("dtapJournal", c.where(c.layout().jobDir()));
              g.writeNumberField("dtapFiles", s.files.get());
              g.writeNumberField("dtapBytes", s.bytes.get());
              g.writeNumberField("dtapUploadsAborted", s.aborted.get());
              g.writeNumberField("dtapStoreRequests", stats.totalRequests());
              g.writeEndObject();
            });
    c.store().put(c.layout().success(), json);
  }

  private static String hostname() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown";
    }
  }
}
