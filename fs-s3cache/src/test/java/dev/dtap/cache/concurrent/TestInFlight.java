package dev.dtap.cache.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TestInFlight {
  private final InFlight work = new InFlight();

  @Test
  void nothingEnteredIsIdleAtOnce() throws Exception {
    assertThat(work.isIdle()).isTrue();
    assertThat(work.awaitIdle(0, TimeUnit.NANOSECONDS)).isTrue();
    work.awaitIdle();
  }

  @Test
  void aWaiterWakesWhenTheLastPieceEnds() throws Exception {
    work.enter();
    work.enter();
    CountDownLatch waiting = new CountDownLatch(1);
    CompletableFuture<Void> waiter =
        CompletableFuture.runAsync(
            () -> {
              waiting.countDown();
              try {
                work.awaitIdle();
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    waiting.await();
    work.exit();
    assertThat(work.count()).isEqualTo(1);
    assertThat(waiter).as("one piece is still in flight").isNotDone();
    work.exit();
    waiter.get(1, TimeUnit.MINUTES);
    assertThat(work.isIdle()).isTrue();
  }

  @Test
  void aBoundedWaitGivesUpWhileWorkIsInFlight() throws Exception {
    work.enter();
    assertThat(work.awaitIdle(0, TimeUnit.NANOSECONDS)).isFalse();
    assertThat(work.awaitIdle(1, TimeUnit.MILLISECONDS)).isFalse();
    work.exit();
    assertThat(work.awaitIdle(Long.MAX_VALUE, TimeUnit.NANOSECONDS))
        .as("an unbounded wait does not overflow its deadline")
        .isTrue();
  }

  @Test
  void moreEndsThanStartsAreRefusedAndLeaveTheCountAlone() {
    assertThatThrownBy(work::exit).isInstanceOf(IllegalStateException.class);
    assertThat(work.count()).isZero();
  }

  @Test
  void manyThreadsEnteringAndLeavingEndIdle() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      for (int i = 0; i < 10_000; i++) {
        work.enter();
        pool.execute(work::exit);
      }
      assertThat(work.awaitIdle(1, TimeUnit.MINUTES)).isTrue();
      assertThat(work.count()).isZero();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anInterruptedWaiterStopsWaiting() throws Exception {
    work.enter();
    Thread.currentThread().interrupt();
    try {
      work.awaitIdle();
      throw new AssertionError("awaitIdle returned while work was in flight");
    } catch (InterruptedException expected) {
      assertThat(work.count()).isEqualTo(1);
    }
  }
}
