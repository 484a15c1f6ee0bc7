package dev.dtap.commit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.audit.AuditConstants;
import org.apache.hadoop.fs.audit.CommonAuditContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
}
