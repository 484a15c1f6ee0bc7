package dev.dtap.commit.tap;

import dev.dtap.commit.record.JobLayout;
import dev.dtap.commit.record.PendingFile;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file written under a magic path: its bytes stream to an uncompleted multipart upload at the
 * final key. The upload is started, and journaled, when the first part is full or at close; parts
 * upload in the background while the writer goes on, at most {@code activeParts} at once, so the
 * stream holds at most {@code (activeParts + 1) x partSize} bytes; that memory comes from, and goes
 * back to, the JVM's {@link PartBuffers} once a part's upload has returned. Close waits for every
 * part and leaves the upload pending for job commit.
 *
 * <p>Not thread-safe, as output streams are not.
 */
final class MagicOutputStream extends OutputStream {
  private static final Logger LOG = LoggerFactory.getLogger(MagicOutputStream.class);
  private final MultipartStore store;
  private final JobLayout layout;
  private final String key;
  private final String attempt;
  private final AttemptFiles attempts;
  private final String attemptKey;
  private final String magicPath;
  private final int partSize;
  private final Semaphore active;
  private final Executor pool;
  private final boolean recordClose;
  private final CommitSteps steps;
  private final List<CompletableFuture<UploadedPart>> parts = new ArrayList<>();

  /** The current part's arrays, filled in order and never copied into a bigger one. */
  private List<byte[]> chunks = new ArrayList<>();

  private byte[] chunk;
  private int inChunk;
  private int buffered;
  private long total;
  private String uploadId;
  private String journalName;
  private boolean closed;
  private IOException failure;

  MagicOutputStream(
      MultipartStore store,
      JobLayout layout,
      String key,
      String attempt,
      AttemptFiles attempts,
      String magicPath,
      int partSize,
      int activeParts,
      Executor pool,
      boolean recordClose,
      CommitSteps steps) {
    this.store = store;
    this.layout = layout;
    this.key = key;
    this.attempt = attempt;
    this.attempts = attempts;
    this.attemptKey = AttemptFiles.key(layout, attempt);
    this.magicPath = magicPath;
    this.partSize = partSize;
    this.active = new Semaphore(activeParts);
    this.pool = pool;
    this.steps = steps;
    this.recordClose = recordClose;
    attempts.opened(attemptKey);
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    checkUsable();
    if ((off | len) < 0 || off + len > b.length) {
      throw new IndexOutOfBoundsException("off " + off + ", len " + len + ", array " + b.length);
    }
    while (len > 0) {
      if (chunk == null || inChunk == chunk.length) {
        // pooled arrays only: the last one of a part is filled as far as the part goes
        chunk =
            chunks.isEmpty() && parts.isEmpty()
                ? PartBuffers.SHARED.takeFirst()
                : PartBuffers.SHARED.take();
        chunks.add(chunk);
        inChunk = 0;
      }
      int n = Math.min(Math.min(len, chunk.length - inChunk), partSize - buffered);
      System.arraycopy(b, off, chunk, inChunk, n);
      inChunk += n;
      buffered += n;
      total += n;
      off += n;
      len -= n;
      if (buffered == partSize) {
        sendPart();
        // the next part's arrays are allocated when its first byte arrives, not now: a file that
        // ends on a part boundary allocates nothing more
        chunks = new ArrayList<>();
        chunk = null;
        buffered = 0;
      }
    }
  }

  /** Starts the upload and writes its journal entry, before any data goes out. */
  private void start() throws IOException {
    if (uploadId != null) {
      return;
    }
    JournaledUpload started =
        asAttempt(() -> JournaledUpload.start(store, layout, key, attempt, steps));
    uploadId = started.uploadId();
    journalName = started.entryName();
  }

  private void sendPart() throws IOException {
    start();
    int number = parts.size() + 1;
    if (number > JournaledUpload.MAX_PARTS) {
      throw fail(JournaledUpload.tooManyParts("File " + magicPath));
    }
    List<byte[]> memory = chunks;
    PartData data = PartData.of(memory, buffered);
    try {
      active.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw fail(new InterruptedIOException("interrupted writing " + magicPath));
    }
    CompletableFuture<UploadedPart> f = new CompletableFuture<>();
    parts.add(f);
    String id = uploadId;
    pool.execute(
        () -> {
          UploadedPart uploaded = null;
          Throwable failed = null;
          try {
            uploaded = asAttempt(() -> store.uploadPart(key, id, number, data));
          } catch (Throwable t) {
            failed = t;
          } finally {
            // the upload has returned: neither the SDK nor a retry reads the part any more; the
            // memory goes back before the future completes, so a closed stream holds none
            PartBuffers.SHARED.give(memory);
            active.release();
          }
          if (failed != null) {
            f.completeExceptionally(failed);
          } else {
            f.complete(uploaded);
          }
        });
  }

  private void checkUsable() throws IOException {
    if (closed) {
      throw new IOException("Stream to " + magicPath + " is closed");
    }
    if (failure != null) {
      throw new IOException("Stream to " + magicPath + " failed earlier", failure);
    }
    for (CompletableFuture<UploadedPart> f : parts) {
      if (f.isCompletedExceptionally()) {
        throw fail(cause(f));
      }
    }
  }

  private IOException fail(IOException e) {
    failure = e;
    return e;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    PendingFile done = null;
    try {
      if (failure != null) {
        throw new IOException("Stream to " + magicPath + " failed earlier", failure);
      }
      if (buffered > 0 || parts.isEmpty()) {
        sendPart();
      }
      List<UploadedPart> uploaded = new ArrayList<>(parts.size());
      for (CompletableFuture<UploadedPart> f : parts) {
        uploaded.add(await(f));
      }
      done = new PendingFile(key, uploadId, journalName, total, uploaded);
      if (recordClose) {
        // task commit may run in another filesystem instance, which holds no state of this one
        byte[] record = done.encode();
        asAttempt(
            () -> {
              store.put(layout.closedDir(attempt) + journalName, record);
              return null;
            });
      }
    } catch (IOException | RuntimeException e) {
      if (uploadId != null) {
        for (CompletableFuture<UploadedPart> f : parts) {
          f.cancel(false);
        }
        abortQuietly(uploadId);
      }
      throw e;
    } finally {
      chunks = null;
      chunk = null;
      attempts.closed(attemptKey, magicPath, done);
    }
  }

  private UploadedPart await(CompletableFuture<UploadedPart> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted closing " + magicPath);
    } catch (ExecutionException e) {
      throw cause(f);
    }
  }

  private IOException cause(CompletableFuture<UploadedPart> f) {
    try {
      f.join();
      return new IOException("no failure");
    } catch (java.util.concurrent.CompletionException
        | java.util.concurrent.CancellationException e) {
      Throwable c = e.getCause() == null ? e : e.getCause();
      return c instanceof IOException
          ? (IOException) c
          : new IOException("Uploading " + magicPath + " failed: " + c, c);
    }
  }

  /** Runs requests of this file tagged with its own job and attempt, on whatever thread. */
  private <T> T asAttempt(AuditContext.StoreCall<T> requests) throws IOException {
    return AuditContext.callAs(layout.uuid(), attempt, requests);
  }

  private void abortQuietly(String id) {
    try {
      Uninterrupted.call(() -> asAttempt(() -> store.abort(key, id)));
    } catch (IOException e) {
      // the journal still lists the upload: job commit or abort finds it
      LOG.warn("Could not abort upload {} of {}: {}", id, magicPath, e.toString());
    }
  }

  @Override
  public String toString() {
    return "MagicOutputStream{" + magicPath + "}";
  }
}
