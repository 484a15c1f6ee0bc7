package dev.dtap.commit;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The magic committer: a task attempt writes under {@code <dest>/__magic_job-<uuid>/<attempt>/__base}
 * on the dtap filesystem, where the tap's output hook streams each file to an uncompleted upload
 * at its final key. Task commit writes one record listing the attempt's uploads, from what this JVM
 * wrote (no store reads); job commit completes them. Nothing is copied or renamed.
 */
final class MagicCommitter extends DtapCommitter {
  static final String NAME = "magic";

  private final Path workPath;

  MagicCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    super(outputPath, context, NAME);
    this.workPath =
        attempt == null
            ? null
            : MagicPaths.attemptBase(ctx.dest, ctx.layout.uuid(), attempt.toString());
  }

  @Override
  public Path getWorkPath() {
    return workPath;
  }

  /** Nothing to create: the attempt's directory is virtual. */
  @Override
  public void setupTask(TaskAttemptContext context) {}

  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    String attemptId = attemptId(context);
    List<PendingFile> files = ctx.tap.attempts().take(attemptKey(context));
    if (files == null) {
      // this JVM holds no stream of the attempt: it wrote nothing, or it committed already (a
      // repeated commit), or it wrote in another process, whose unclosed streams could not be told
      // from finished ones; refuse the last
      if (alreadyCommitted(attemptId)) {
        return;
      }
      RemoteIterator<dev.dtap.commit.store.ObjectInfo> journal =
          ctx.store().list(ctx.layout.journalDir(attemptId));
      if (journal.hasNext()) {
        throw new IOException(
            "Task attempt "
                + attemptId
                + " wrote magic files in another process; the magic committer's task commit must"
                + " run in the process that wrote them");
      }
      files = java.util.Collections.emptyList();
    }
    commitRecord(context, files);
  }
}
