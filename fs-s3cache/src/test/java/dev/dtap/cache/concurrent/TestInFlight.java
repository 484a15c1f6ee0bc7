package dev.dtap.cache.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class TestInFlight {
  private final InFlight work = new InFlight();

  @Test
  void nothingEnteredIsIdleAtOnce() throws Exception {
    assertThat(work.isIdle()).isTrue();
    assertThat(work.awaitIdle(0, TimeUnit.NANOSECONDS)).isTrue();
    work.awaitIdle();
  }

  /** Starts a thread that waits, and returns once it is parked in the wait. */
  private Thread waiter(ThrowingWait wait, AtomicReference<Object> result) throws Exception {
    Thread t =
        new Thread(
            () -> {
              try {
                result.set(wait.await());
              } catch (InterruptedException e) {
                result.set(e);
              }
            });
    t.start();
    // a positive condition: the waiter reached the monitor's wait (or the timed wait)
    while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
      assertThat(t.isAlive()).as("the waiter returned while work was in flight").isTrue();
      Thread.onSpinWait();
    }
    return t;
  }

  interface ThrowingWait {
    Object await() throws InterruptedException;
  }

  @Test
  void aWaiterWakesWhenTheLastPieceEnds() throws Exception {
    work.enter();
    work.enter();
    AtomicReference<Object> result = new AtomicReference<>();
    Thread t =
        waiter(
            () -> {
              work.awaitIdle();
              return "idle";
            },
            result);
    work.exit();
    assertThat(work.count()).isEqualTo(1);
    assertThat(t.isAlive()).as("one piece is still in flight").isTrue();
    work.exit();
    t.join(TimeUnit.MINUTES.toMillis(1));
    assertThat(result.get()).isEqualTo("idle");
  }

  @Test
  void aBoundedWaitGivesUpWhileWorkIsInFlight() throws Exception {
    work.enter();
    assertThat(work.awaitIdle(0, TimeUnit.NANOSECONDS)).isFalse();
    assertThat(work.awaitIdle(-1, TimeUnit.SECONDS)).as("a negative bound only looks").isFalse();
    assertThat(work.awaitIdle(Long.MIN_VALUE, TimeUnit.NANOSECONDS)).isFalse();
    assertThat(work.awaitIdle(1, TimeUnit.MILLISECONDS)).isFalse();
  }

  @Test
  void anUnboundedWaitDoesNotOverflowItsDeadline() throws Exception {
    work.enter();
    AtomicReference<Object> result = new AtomicReference<>();
    Thread t = waiter(() -> work.awaitIdle(Long.MAX_VALUE, TimeUnit.NANOSECONDS), result);
    assertThat(t.isAlive()).isTrue();
    work.exit();
    t.join(TimeUnit.MINUTES.toMillis(1));
    assertThat(result.get()).isEqualTo(Boolean.TRUE);
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
