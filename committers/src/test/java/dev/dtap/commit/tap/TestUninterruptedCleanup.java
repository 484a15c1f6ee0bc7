package dev.dtap.commit.tap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.record.JobLayout;
import dev.dtap.commit.store.InitiatedUpload;
import dev.dtap.commit.testing.ForwardingStore;
import dev.dtap.commit.testing.LocalMultipartStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task attempt killed by its engine is interrupted, and S3A's client refuses every request of an
 * interrupted thread; its cleanup must still abort what it started. The store here refuses as the
 * client does (found by Spark's speculation test in CI: an upload whose journal entry was cut off
 * by the kill stayed pending, its abort refused).
 */
class TestUninterruptedCleanup {
  @TempDir Path dir;

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  /** Refuses requests on an interrupted thread, as the AWS SDK does. */
  private static final class RefusingWhenInterrupted extends ForwardingStore {
    /** The engine's kill: the task's thread, interrupted once the store started the upload. */
    volatile Thread interruptAfterInitiate;

    RefusingWhenInterrupted(LocalMultipartStore d) {
      super(d);
    }

    private static void refuseIfInterrupted(String what) throws IOException {
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedIOException(what + ": interrupted");
      }
    }

    @Override
    public InitiatedUpload initiate(String key) throws IOException {
      refuseIfInterrupted("initiate");
      InitiatedUpload u = super.initiate(key);
      Thread task = interruptAfterInitiate;
      if (task != null) {
        task.interrupt(); // the kill lands between the initiate and the journal
      }
      return u;
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
      refuseIfInterrupted("put");
      super.put(key, data);
    }

    @Override
    public boolean abort(String key, String uploadId) throws IOException {
      refuseIfInterrupted("abort");
      return super.abort(key, uploadId);
    }
  }

  @Test
  void aKillBetweenInitiateAndJournalLeavesTheUploadJournaled() throws Exception {
    LocalMultipartStore local = new LocalMultipartStore(dir.resolve("store"));
    RefusingWhenInterrupted store = new RefusingWhenInterrupted(local);
    store.interruptAfterInitiate = Thread.currentThread();
    JobLayout layout = new JobLayout("out", "job-1");

    // the kill lands between the initiate and the journal entry: both still happen
    JournaledUpload started =
        JournaledUpload.start(store, layout, "out/part-0", "attempt_0", new CommitSteps());
    assertThat(Thread.currentThread().isInterrupted()).as("the kill still visible").isTrue();
    assertThat(local.pendingUploads()).as("the upload, journaled").hasSize(1);
    assertThat(local.list(layout.journalDir("attempt_0")).hasNext()).as("its entry").isTrue();

    // the attempt then fails on its next request, and its cleanup aborts what the journal names
    boolean aborted = Uninterrupted.call(() -> store.abort("out/part-0", started.uploadId()));
    assertThat(aborted).isTrue();
    assertThat(local.pendingUploads()).as("uploads left pending").isEmpty();
  }

  @Test
  void cleanupRunsUninterruptedAndTheCallerKeepsItsFlag() throws Exception {
    Thread.currentThread().interrupt();
    boolean seen = Uninterrupted.call(() -> Thread.currentThread().isInterrupted());
    assertThat(seen).as("interrupted while cleaning up").isFalse();
    assertThat(Thread.currentThread().isInterrupted()).as("the caller's flag").isTrue();

    Thread.interrupted();
    Uninterrupted.call(() -> null);
    assertThat(Thread.currentThread().isInterrupted()).as("no interrupt invented").isFalse();
  }

  @Test
  void anInterruptDuringCleanupDoesNotCutItShort() throws Exception {
    LocalMultipartStore local = new LocalMultipartStore(dir.resolve("store"));
    RefusingWhenInterrupted store = new RefusingWhenInterrupted(local);
    String id = store.initiate("out/part-0").uploadId();
    Thread caller = Thread.currentThread();
    boolean aborted =
        Uninterrupted.call(
            () -> {
              caller.interrupt(); // the engine's second kill, while the cleanup runs
              return store.abort("out/part-0", id);
            });
    assertThat(aborted).isTrue();
    assertThat(local.pendingUploads()).isEmpty();
    assertThat(Thread.currentThread().isInterrupted()).isTrue();
  }
}
