package dev.dtap.commit.tap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.record.JobLayout;
import dev.dtap.commit.store.InitiatedUpload;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import dev.dtap.commit.testing.ForwardingStore;
import dev.dtap.commit.testing.LocalMultipartStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.audit.AuditConstants;
import org.apache.hadoop.fs.audit.CommonAuditContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TestAuditContext {
  private final ExecutorService pool = Executors.newSingleThreadExecutor();

  @AfterEach
  void close() throws Exception {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
    CommonAuditContext.currentAuditContext().remove(AuditConstants.PARAM_JOB_ID);
    CommonAuditContext.currentAuditContext().remove(AuditConstants.PARAM_TASK_ATTEMPT_ID);
  }

  /** The job and attempt ids the current thread's requests would carry. */
  private static List<String> ids() {
    CommonAuditContext c = CommonAuditContext.currentAuditContext();
    return Arrays.asList(
        c.get(AuditConstants.PARAM_JOB_ID), c.get(AuditConstants.PARAM_TASK_ATTEMPT_ID));
  }

  private List<String> idsOnThePool() throws Exception {
    CompletableFuture<List<String>> seen = new CompletableFuture<>();
    pool.execute(() -> seen.complete(ids()));
    return seen.get(1, TimeUnit.MINUTES);
  }

  @Test
  void aTaskTagsItsThreadWithJobAndAttemptAndLeavingKeepsTheJob() {
    AuditContext.enterTask("job_1", "attempt_1_m_000000_0");
    assertThat(ids()).containsExactly("job_1", "attempt_1_m_000000_0");
    AuditContext.leaveTask();
    assertThat(ids()).containsExactly("job_1", null);
    AuditContext.enterJob("job_2");
    assertThat(ids()).containsExactly("job_2", null);
  }

  @Test
  void workOnAPoolCarriesItsSubmittersIdsAndThePoolThreadGetsItsOwnBack() throws Exception {
    pool.execute(() -> AuditContext.enterJob("pool-thread-job"));
    assertThat(idsOnThePool()).containsExactly("pool-thread-job", null);

    AuditContext.enterTask("job_7", "attempt_7_r_000003_1");
    CompletableFuture<List<String>> during = new CompletableFuture<>();
    AuditContext.carrying(pool).execute(() -> during.complete(ids()));
    assertThat(during.get(1, TimeUnit.MINUTES)).containsExactly("job_7", "attempt_7_r_000003_1");

    assertThat(idsOnThePool()).containsExactly("pool-thread-job", null);
  }

  @Test
  void aSubmitterWithoutIdsLeavesThePoolThreadAsItIs() throws Exception {
    CompletableFuture<List<String>> during = new CompletableFuture<>();
    AuditContext.carrying(pool).execute(() -> during.complete(ids()));
    assertThat(during.get(1, TimeUnit.MINUTES)).containsExactly(null, null);
  }

  @Test
  void workThatThrowsStillGivesThePoolThreadItsIdsBack() throws Exception {
    pool.execute(() -> AuditContext.enterJob("pool-thread-job"));
    AuditContext.enterJob("job_9");
    CompletableFuture<Void> ran = new CompletableFuture<>();
    // submit, not execute: the pool's one thread survives the failure and is asked again below
    AuditContext.carrying(pool::submit)
        .execute(
            () -> {
              ran.complete(null);
              throw new IllegalStateException("the work's own failure");
            });
    ran.get(1, TimeUnit.MINUTES);
    assertThat(idsOnThePool()).containsExactly("pool-thread-job", null);
  }

  @ParameterizedTest(name = "last part fails: {0}")
  @ValueSource(booleans = {false, true})
  void aMagicFileWrittenOnAThreadThatNeverRanTheTaskIsTaggedWithTheAttemptItsPathNames(
      boolean lastPartFails, @TempDir Path dir) throws Exception {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    MultipartStore store =
        new ForwardingStore(new LocalMultipartStore(dir.resolve("uploads"))) {
          @Override
          public InitiatedUpload initiate(String key) throws IOException {
            seen.add("initiate " + ids());
            return super.initiate(key);
          }

          @Override
          public UploadedPart uploadPart(String key, String id, int number, PartData data)
              throws IOException {
            seen.add("part " + ids());
            if (lastPartFails && number == 3) {
              throw new IOException("injected");
            }
            return super.uploadPart(key, id, number, data);
          }

          @Override
          public boolean abort(String key, String uploadId) throws IOException {
            seen.add("abort " + ids());
            return super.abort(key, uploadId);
          }

          @Override
          public void put(String key, byte[] data) throws IOException {
            seen.add("put " + ids());
            super.put(key, data);
          }
        };
    String attempt = "attempt_202611290001_0001_m_000001_0";
    JobLayout layout = new JobLayout("out", "job-uuid-1");
    // a thread the task started itself, still tagged from an attempt it served before
    AuditContext.enterTask("job-old", "attempt_202611290001_0000_m_000009_0");
    MagicOutputStream out =
        new MagicOutputStream(
            store,
            layout,
            "out/part-0",
            attempt,
            new AttemptFiles(),
            "/out/__magic_job-job-uuid-1/" + attempt + "/__base/part-0",
            1024,
            2,
            AuditContext.carrying(pool),
            true,
            new CommitSteps());
    out.write(new byte[2500]);
    if (lastPartFails) {
      assertThatThrownBy(out::close).hasMessage("injected");
      assertThat(seen)
          .as("the failed file's upload is aborted")
          .anyMatch(r -> r.startsWith("abort"));
    } else {
      out.close();
    }

    assertThat(seen)
        .as("every request of the file: initiate, journal entry, 3 parts, close record or abort")
        .hasSize(6)
        .allSatisfy(request -> assertThat(request).endsWith("[job-uuid-1, " + attempt + "]"));
    assertThat(ids())
        .as("the writing thread gets its own ids back")
        .containsExactly("job-old", "attempt_202611290001_0000_m_000009_0");
    assertThat(idsOnThePool()).as("and so does the pool's").containsExactly(null, null);
  }
}
