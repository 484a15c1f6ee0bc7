package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A flush waits for every task handed to the pool, from the moment it is handed over. */
class TestBackgroundLoads {
  private final BackgroundLoads loads = new BackgroundLoads(1, 1000);

  @AfterEach
  void tearDown() {
    loads.shutdown();
  }

  private void awaitIdle() {
    while (!loads.idle()) {
      Thread.onSpinWait(); // a positive condition, reached once the released tasks end
    }
  }

  @Test
  void aTaskHandedOverCountsUntilItEndsEvenBeforeAWorkerStartsIt() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    loads.execute(
        () -> {
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    // the pool's own counts miss a task its new worker has not started yet; this one must not
    assertThat(loads.idle()).isFalse();
    CountDownLatch ran = new CountDownLatch(1);
    assertThat(loads.reserve(600)).isTrue();
    loads.executeReserved(600, ran::countDown);
    assertThat(loads.idle()).isFalse();
    assertThat(loads.reserve(600)).as("budget held by the queued task").isFalse();

    release.countDown();
    ran.await();
    awaitIdle();
    assertThat(loads.reserve(1000)).as("budget given back").isTrue();
  }

  @Test
  void aRefusedTaskIsNotCounted() {
    loads.shutdown();
    try {
      loads.execute(() -> {});
    } catch (java.util.concurrent.RejectedExecutionException expected) {
      // the pool is shut down
    }
    assertThat(loads.idle()).isTrue();
    assertThat(loads.reserve(500)).isTrue();
    loads.executeReserved(500, () -> {});
    assertThat(loads.reserve(1000)).as("a refused reserved task gives its budget back").isTrue();
  }

  @Test
  void closeLetsQueuedTasksEndWithinItsBound() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch ran = new CountDownLatch(1);
    loads.execute(
        () -> {
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    loads.execute(ran::countDown); // queued behind the held one
    CompletableFuture<Boolean> closed =
        CompletableFuture.supplyAsync(() -> loads.close(TimeUnit.MINUTES.toNanos(1)));
    release.countDown();
    assertThat(closed.get(1, TimeUnit.MINUTES)).isTrue();
    assertThat(ran.getCount()).as("the queued task ran before close returned").isZero();
    assertThat(loads.idle()).isTrue();
  }

  @Test
  void closeStopsWhatOutlastsItsBound() {
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    CountDownLatch ran = new CountDownLatch(1);
    loads.execute(
        () -> {
          try {
            never.await();
          } catch (InterruptedException e) {
            interrupted.countDown();
          }
        });
    loads.execute(ran::countDown);
    assertThat(loads.close(0)).isFalse();
    awaitIdle(); // the running task ends once interrupted; the queued one was dropped
    assertThat(interrupted.getCount()).isZero();
    assertThat(ran.getCount()).as("the queued task never started").isOne();
  }
}
