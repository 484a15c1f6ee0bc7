package dev.dtap.commit;

import dev.dtap.commit.record.JobLayout;
import dev.dtap.commit.record.MagicPaths;
import dev.dtap.commit.record.PendingFile;
import dev.dtap.commit.store.ObjectInfo;
import dev.dtap.commit.tap.AuditContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The magic committer: a task attempt writes under {@code
 * <dest>/__magic_job-<uuid>/<attempt>/__base} on the dtap filesystem, where the tap's output hook
 * streams each file to an uncompleted upload at its final key. Task commit writes one record
 * listing the attempt's uploads, from what this JVM wrote (no store reads); job commit completes
 * them. Nothing is copied or renamed.
 */
final class MagicCommitter extends DtapCommitter {
  static final String NAME = "magic";

  private final Path workPath;

  MagicCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    super(outputPath, context, NAME);
    this.workPath =
        attempt == null
            ? null
            : MagicPaths.attemptBase(ctx.dest(), ctx.layout().uuid(), attempt.toString());
  }

  @Override
  public Path getWorkPath() {
    return workPath;
  }

  /**
   * Nothing to create, the attempt's directory being virtual; the task's writes, made on this
   * thread, are tagged with its attempt from here on.
   */
  @Override
  public void setupTask(TaskAttemptContext context) {
    enterTask(context);
  }

  /**
   * Yes when this filesystem holds a stream of the attempt; otherwise the attempt's journal
   * answers, with one listing: files written through another instance or process, or a commit
   * already made, which {@link #commitTask} tells apart.
   */
  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) throws IOException {
    if (ctx.tap().attempts().holds(attemptKey(context))) {
      return true;
    }
    return ctx.store().list(ctx.layout().journalDir(attemptId(context))).hasNext();
  }

  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    enterTask(context);
    try {
      String attemptId = attemptId(context);
      List<PendingFile> files = ctx.tap().attempts().take(attemptKey(context));
      if (files == null) {
        // this filesystem instance holds no stream of the attempt: it wrote nothing, or committed
        // already (a repeated commit), or it wrote through another instance or process
        if (alreadyCommitted(attemptId)) {
          return;
        }
        files = closedElsewhere(attemptId);
      }
      commitRecord(context, files);
    } finally {
      AuditContext.leaveTask();
    }
  }

  /**
   * The files an attempt wrote through another filesystem instance, from the close records its
   * streams left (see {@link JobLayout#closedDir}); a journaled upload without one is a stream that
   * never closed, whose file cannot be committed.
   */
  private List<PendingFile> closedElsewhere(String attemptId) throws IOException {
    List<String> entries = new ArrayList<>();
    RemoteIterator<ObjectInfo> journal = ctx.store().list(ctx.layout().journalDir(attemptId));
    while (journal.hasNext()) {
      String key = journal.next().key();
      entries.add(key.substring(key.lastIndexOf('/') + 1));
    }
    if (entries.isEmpty()) {
      return Collections.emptyList();
    }
    Map<String, PendingFile> byKey = new LinkedHashMap<>();
    String closedDir = ctx.layout().closedDir(attemptId);
    int unclosed = 0;
    for (String entry : entries) { // in entry order: a later upload of a key replaces an earlier
      Optional<byte[]> record = ctx.store().get(closedDir + entry);
      if (!record.isPresent()) {
        unclosed++;
        continue;
      }
      PendingFile f = PendingFile.decode(record.get(), ctx.where(closedDir + entry));
      byKey.put(f.key(), f);
    }
    if (unclosed > 0) {
      throw new IOException(
          "Task attempt "
              + attemptId
              + " started "
              + unclosed
              + " magic files that no stream of this filesystem closed: they were written in"
              + " another"
              + " process, or through another dtap filesystem instance while the filesystem cache"
              + " was on (fs.dtap.impl.disable.cache=false); the magic committer's task commit must"
              + " run in the process, and filesystem, that wrote them");
    }
    return new ArrayList<>(byKey.values());
  }
}
