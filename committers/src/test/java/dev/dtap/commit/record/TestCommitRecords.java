package dev.dtap.commit.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.config.ConflictMode;
import dev.dtap.commit.store.UploadedPart;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class TestCommitRecords {
  private static String md5Hex(byte[] b) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (byte x : MessageDigest.getInstance("MD5").digest(b)) {
      sb.append(String.format("%02x", x));
    }
    return sb.toString();
  }

  @Test
  void taskRecordRoundTrips() throws Exception {
    PendingFile f =
        new PendingFile(
            "warehouse/out/p=1/part-0 with \"quotes\" and spaces",
            "upload-1",
            "00000001-0000abcd",
            12,
            Arrays.asList(
                new UploadedPart(1, "\"e1\"", 5, "CRC32C", "yZRlqg=="),
                new UploadedPart(2, "\"e2\"", 7)));
    TaskRecord r =
        new TaskRecord(
            "uuid-1",
            "task_1_0001_m_000003",
            "attempt_1_0001_m_000003_1",
            2,
            99L,
            Collections.singletonList("p=1"),
            Collections.singletonList(f));
    TaskRecord back = TaskRecord.decode(r.encode(), "test");
    assertThat(back.jobUuid()).isEqualTo("uuid-1");
    assertThat(back.attemptId()).isEqualTo("attempt_1_0001_m_000003_1");
    assertThat(back.generation()).isEqualTo(2);
    assertThat(back.partitions()).containsExactly("p=1");
    assertThat(back.files()).hasSize(1);
    PendingFile g = back.files().get(0);
    assertThat(g.key()).isEqualTo(f.key());
    assertThat(g.parts()).isEqualTo(f.parts());
    assertThat(g.parts().get(0).checksum()).as("a part's checksum survives").isEqualTo("yZRlqg==");
    assertThat(g.parts().get(1).checksum()).as("a part without one stays without").isNull();
    assertThat(new String(r.encode(), StandardCharsets.UTF_8))
        .as("older releases, which would drop the checksums, see a version of their own")
        .contains("\"version\" : 2");
    TaskRecord plain =
        new TaskRecord(
            "uuid-1",
            "task_1_0001_m_000004",
            "attempt_1_0001_m_000004_0",
            1,
            99L,
            Collections.emptyList(),
            Collections.singletonList(
                new PendingFile(
                    "k", "u", "j", 5, Collections.singletonList(new UploadedPart(1, "\"e\"", 5)))));
    assertThat(new String(plain.encode(), StandardCharsets.UTF_8)).contains("\"version\" : 1");
    byte[] future =
        new String(r.encode(), StandardCharsets.UTF_8)
            .replace("\"version\" : 2", "\"version\" : 4")
            .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> TaskRecord.decode(future, "dtap://t/rec"))
        .hasMessageContaining("dtap://t/rec has version 4");
    assertThat(g.length()).isEqualTo(12);
    assertThat(back.bytes()).isEqualTo(12);
  }

  @Test
  void journalEntryAndIntentRoundTrip() throws Exception {
    JournalEntry e = JournalEntry.decode(new JournalEntry("k", "u", "a", 5).encode(), "test");
    assertThat(e.key()).isEqualTo("k");
    assertThat(e.uploadId()).isEqualTo("u");
    CommitIntent i =
        new CommitIntent(
            "uuid",
            "job_1_0001",
            7,
            ConflictMode.REPLACE,
            true,
            false,
            Collections.singletonList(
                new CommitIntent.Winner("task_1_0001_m_000000", "x/tasks/t/00001")));
    CommitIntent back = CommitIntent.decode(i.withReplaced().encode(), "test");
    assertThat(back.replaced()).isTrue();
    assertThat(back.partitioned()).as("the layout travels with the intent").isTrue();
    assertThat(new String(i.encode(), StandardCharsets.UTF_8))
        .as("releases that would replace the whole destination do not read it")
        .contains("\"version\" : 2");
    CommitIntent older =
        new CommitIntent(
            "uuid", "job_1_0001", 7, ConflictMode.APPEND, null, false, Collections.emptyList());
    assertThat(CommitIntent.decode(older.encode(), "test").partitioned()).isNull();
    byte[] future =
        new String(i.encode(), StandardCharsets.UTF_8)
            .replace("\"version\" : 2", "\"version\" : 3")
            .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> CommitIntent.decode(future, "dtap://t/commit"))
        .hasMessageContaining("version 3");
    assertThat(back.conflictMode()).isEqualTo(ConflictMode.REPLACE);
    assertThat(back.winners()).hasSize(1);
    assertThat(back.winners().get(0).recordKey).isEqualTo("x/tasks/t/00001");
  }

  @Test
  void corruptRecordsAreReportedWithTheirSource() {
    assertThatThrownBy(
            () ->
                TaskRecord.decode(
                    "{\"jobUuid\": 3".getBytes(StandardCharsets.UTF_8), "s3a://b/rec"))
        .hasMessageContaining("Corrupt commit record s3a://b/rec");
    assertThatThrownBy(
            () ->
                TaskRecord.decode(
                    "{\"jobUuid\": 3}".getBytes(StandardCharsets.UTF_8), "s3a://b/rec"))
        .hasMessageContaining("field 'jobUuid' must be a string");
    assertThatThrownBy(
            () -> JournalEntry.decode("[]".getBytes(StandardCharsets.UTF_8), "s3a://b/j"))
        .hasMessageContaining("s3a://b/j");
  }

  @Test
  void expectedEtagIsTheMd5OfThePartMd5sAndTheCount() throws Exception {
    byte[] p1 = "first part".getBytes(StandardCharsets.UTF_8);
    byte[] p2 = "second".getBytes(StandardCharsets.UTF_8);
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    md5.update(MessageDigest.getInstance("MD5").digest(p1));
    md5.update(MessageDigest.getInstance("MD5").digest(p2));
    StringBuilder expected = new StringBuilder();
    for (byte b : md5.digest()) {
      expected.append(String.format("%02x", b));
    }
    PendingFile f =
        new PendingFile(
            "k",
            "u",
            "j",
            16,
            Arrays.asList(
                new UploadedPart(1, "\"" + md5Hex(p1) + "\"", 10),
                new UploadedPart(2, md5Hex(p2), 6)));
    assertThat(f.expectedEtag()).isEqualTo(expected + "-2");
    assertThat(
            new PendingFile(
                    "k", "u", "j", 1, Collections.singletonList(new UploadedPart(1, "opaque", 1)))
                .expectedEtag())
        .isNull();
  }

  @Test
  void recordKeysSortByGeneration() {
    JobLayout l = new JobLayout("warehouse/out", "u");
    assertThat(TaskRecords.key(l, "task_1_0001_m_000000", 3))
        .isEqualTo("warehouse/out/__dtap_job-u/tasks/task_1_0001_m_000000/00003");
    assertThat(TaskRecords.generation("x/00012")).isEqualTo(12);
    assertThat(TaskRecords.generation("x/probe")).isEqualTo(-1);
    assertThat(l.journalDir("attempt_1_0001_m_000000_1"))
        .isEqualTo(
            "warehouse/out/__dtap_job-u/journal/task_1_0001_m_000000/attempt_1_0001_m_000000_1/");
    assertThat(new JobLayout("", "u").success()).isEqualTo("_SUCCESS");
  }
}
