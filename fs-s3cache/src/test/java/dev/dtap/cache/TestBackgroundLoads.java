package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
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
}
