package dev.dtap.commit.record;

import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a committed task attempt leaves for job commit: the uncompleted uploads of its files, and
 * the partitions they go to. Stored once per commit under the task's records directory, with a
 * generation number that orders commits of attempts of one task. Immutable.
 */
public final class TaskRecord {
  /** Records whose parts have no checksums: every dtap release reads them. */
  static final int VERSION_PLAIN = 1;

  /** Records with CRC32C part checksums: older releases would complete the uploads without them. */
  static final int VERSION_PART_CHECKSUMS = 2;

  /**
   * Records with part checksums of another algorithm (S3A's {@code
   * fs.s3a.create.checksum.algorithm}).
   */
  static final int VERSION_CHECKSUM_ALGORITHMS = 3;

  private final String jobUuid;
  private final String taskId;
  private final String attemptId;
  private final int generation;
  private final long created;
  private final List<String> partitions;
  private final List<PendingFile> files;

  public TaskRecord(
      String jobUuid,
      String taskId,
      String attemptId,
      int generation,
      long created,
      List<String> partitions,
      List<PendingFile> files) {
    this.jobUuid = jobUuid;
    this.taskId = taskId;
    this.attemptId = attemptId;
    this.generation = generation;
    this.created = created;
    this.partitions = Collections.unmodifiableList(new ArrayList<>(partitions));
    this.files = Collections.unmodifiableList(new ArrayList<>(files));
  }

  public String jobUuid() {
    return jobUuid;
  }

  String taskId() {
    return taskId;
  }

  public String attemptId() {
    return attemptId;
  }

  int generation() {
    return generation;
  }

  long created() {
    return created;
  }

  public List<String> partitions() {
    return partitions;
  }

  public List<PendingFile> files() {
    return files;
  }

  TaskRecord withGeneration(int g) {
    return new TaskRecord(jobUuid, taskId, attemptId, g, created, partitions, files);
  }

  long bytes() {
    long sum = 0;
    for (PendingFile f : files) {
      sum += f.length();
    }
    return sum;
  }

  byte[] encode() throws IOException {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeNumberField("version", version());
          g.writeStringField("jobUuid", jobUuid);
          g.writeStringField("taskId", taskId);
          g.writeStringField("attemptId", attemptId);
          g.writeNumberField("generation", generation);
          g.writeNumberField("created", created);
          g.writeArrayFieldStart("partitions");
          for (String p : partitions) {
            g.writeString(p);
          }
          g.writeEndArray();
          g.writeArrayFieldStart("files");
          for (PendingFile f : files) {
            f.write(g);
          }
          g.writeEndArray();
          g.writeEndObject();
        });
  }

  /**
   * The oldest version that can say everything in this record: a release that reads an older one
   * would complete the uploads without the checksums the store needs back.
   */
  private int version() {
    int v = VERSION_PLAIN;
    for (PendingFile f : files) {
      for (UploadedPart p : f.parts()) {
        if (p.checksum() != null) {
          v =
              Math.max(
                  v,
                  PendingFile.CRC32C.equals(p.checksumAlgorithm())
                      ? VERSION_PART_CHECKSUMS
                      : VERSION_CHECKSUM_ALGORITHMS);
        }
      }
    }
    return v;
  }

  public static TaskRecord decode(byte[] data, String source) throws IOException {
    Json.Fields f = new Json.Fields(Json.parse(data, source), source);
    List<PendingFile> files = new ArrayList<>();
    for (Json.Fields x : f.objects("files")) {
      files.add(PendingFile.read(x));
    }
    TaskRecord record =
        new TaskRecord(
            f.string("jobUuid"),
            f.string("taskId"),
            f.string("attemptId"),
            (int) f.number("generation"),
            f.number("created"),
            f.strings("partitions"),
            files);
    long version = f.number("version");
    if (version > VERSION_CHECKSUM_ALGORITHMS) {
      // completing uploads from a record with fields this release does not know could drop them
      throw new IOException(
          "Commit record "
              + source
              + " has version "
              + version
              + ", newer than this dtap reads ("
              + VERSION_CHECKSUM_ALGORITHMS
              + "); commit or recover the job with a newer dtap");
    }
    return record;
  }

  @Override
  public String toString() {
    return "commit of "
        + attemptId
        + " (generation "
        + generation
        + ", "
        + files.size()
        + " files)";
  }
}
