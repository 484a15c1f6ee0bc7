package dev.dtap.commit;

import dev.dtap.commit.record.PendingFile;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import dev.dtap.commit.tap.AuditContext;
import dev.dtap.commit.tap.JournaledUpload;
import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The staging committer: a task attempt writes to local disk ({@code
 * fs.dtap.committer.staging.dir}) and task commit uploads every file as an uncompleted multipart
 * upload, files in parallel, reporting progress as parts finish so that long uploads do not time
 * the task out. Works for writers that need a real local filesystem (seek, rename within the task).
 */
final class StagingCommitter extends DtapCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(StagingCommitter.class);
  static final String NAME = "staging";

  private final File localDir;

  StagingCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    super(outputPath, context, NAME);
    this.localDir =
        attempt == null
            ? null
            : new File(
                new File(
                    new File(
                        ctx.config().stagingDir(),
                        UserGroupInformation.getCurrentUser().getShortUserName()),
                    ctx.layout().uuid()),
                attempt.toString());
  }

  @Override
  public Path getWorkPath() {
    return localDir == null ? null : new Path(localDir.toURI());
  }

  @Override
  public void setupTask(TaskAttemptContext context) throws IOException {
    enterTask(context);
    Files.createDirectories(localDir.toPath());
    try {
      Files.setPosixFilePermissions(
          localDir.toPath(), PosixFilePermissions.fromString("rwx------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX filesystem: its own permissions apply
    }
  }

  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    enterTask(context);
    try {
      uploadAndRecord(context);
    } finally {
      AuditContext.leaveTask();
    }
  }

  /** Yes when the attempt left a file in its local directory; a committed attempt has none. */
  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) throws IOException {
    return localDir != null && !localFiles().isEmpty();
  }

  private void uploadAndRecord(TaskAttemptContext context) throws IOException {
    List<java.nio.file.Path> local = localFiles();
    // a commit deletes the attempt's files last: none left may be a repeated commit
    if (local.isEmpty() && alreadyCommitted(attemptId(context))) {
      return;
    }
    List<CompletableFuture<PendingFile>> uploads = new ArrayList<>(local.size());
    String attemptId = attemptId(context);
    for (java.nio.file.Path f : local) {
      String rel = localDir.toPath().relativize(f).toString().replace(File.separatorChar, '/');
      String key = ctx.layout().destPrefix() + rel;
      uploads.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return upload(f, key, attemptId, context);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              },
              ctx.tap().uploads(ctx.config().threads())));
    }
    List<PendingFile> files = new ArrayList<>(uploads.size());
    IOException failure = null;
    for (CompletableFuture<PendingFile> u : uploads) {
      try {
        files.add(u.get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = new InterruptedIOException("interrupted uploading task output");
      } catch (ExecutionException e) {
        Throwable c =
            e.getCause() instanceof java.io.UncheckedIOException
                ? e.getCause().getCause()
                : e.getCause();
        if (failure == null) {
          failure = c instanceof IOException ? (IOException) c : new IOException(c.toString(), c);
        }
      }
      context.progress();
    }
    if (failure != null) {
      // what did upload is journaled: aborting the task (or the job) aborts it
      throw failure;
    }
    commitRecord(context, files);
    deleteLocal();
  }

  private List<java.nio.file.Path> localFiles() throws IOException {
    if (!localDir.isDirectory()) {
      return new ArrayList<>();
    }
    try (Stream<java.nio.file.Path> s = Files.walk(localDir.toPath())) {
      return s.filter(Files::isRegularFile)
          .filter(p -> !isChecksum(p.getFileName().toString()))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  /** Hadoop's local filesystem writes a {@code .name.crc} beside each file: not output. */
  private static boolean isChecksum(String name) {
    return name.startsWith(".") && name.endsWith(".crc");
  }

  private PendingFile upload(
      java.nio.file.Path file, String key, String attemptId, TaskAttemptContext context)
      throws IOException {
    MultipartStore store = ctx.store();
    long length = Files.size(file);
    long partSize = ctx.config().partSize();
    if ((length + partSize - 1) / partSize > JournaledUpload.MAX_PARTS) {
      throw JournaledUpload.tooManyParts(file.toString()); // before any request
    }
    JournaledUpload started =
        JournaledUpload.start(store, ctx.layout(), key, attemptId, ctx.tap().steps());
    String uploadId = started.uploadId();
    List<UploadedPart> parts = new ArrayList<>();
    try {
      long offset = 0;
      int number = 1;
      do {
        long n = Math.min(partSize, length - offset);
        parts.add(store.uploadPart(key, uploadId, number++, PartData.ofFile(file, offset, n)));
        offset += n;
        context.progress();
      } while (offset < length);
    } catch (IOException e) {
      try {
        store.abort(key, uploadId);
      } catch (IOException x) {
        e.addSuppressed(x);
      }
      throw e;
    }
    return new PendingFile(key, uploadId, started.entryName(), length, parts);
  }

  @Override
  public void abortTask(TaskAttemptContext context) throws IOException {
    try {
      super.abortTask(context);
    } finally {
      deleteLocal();
    }
  }

  private void deleteLocal() {
    if (localDir == null || !localDir.exists()) {
      return;
    }
    try (Stream<java.nio.file.Path> s = Files.walk(localDir.toPath())) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      LOG.warn("Could not delete staging directory {}: {}", localDir, e.toString());
    }
  }
}
