package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.Await;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
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

  private void awaitIdle() throws InterruptedException {
    loads.awaitIdle();
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
    loads.execute(() -> awaitQuietly(release));
    loads.execute(ran::countDown); // queued behind the held one
    CompletableFuture<Boolean> closed =
        CompletableFuture.supplyAsync(() -> loads.close(TimeUnit.MINUTES.toNanos(1)));
    Await.until("close began", Duration.ofMinutes(1), this::refusesTasks);
    assertThat(closed).as("close waits for the held task").isNotDone();
    release.countDown();
    assertThat(closed.get(1, TimeUnit.MINUTES)).isTrue();
    assertThat(ran.getCount()).as("the queued task ran before close returned").isZero();
    assertThat(loads.idle()).isTrue();
  }

  @Test
  void tasksOutlastingTheBoundAreLeftToEndNotDropped() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch ran = new CountDownLatch(1);
    loads.execute(() -> awaitQuietly(release));
    loads.execute(ran::countDown); // a reader may wait for this one
    assertThat(loads.close(0)).isFalse();
    release.countDown();
    ran.await();
    awaitIdle();
  }

  private boolean refusesTasks() {
    try {
      loads.execute(() -> {});
      return false;
    } catch (RejectedExecutionException e) {
      return true;
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
