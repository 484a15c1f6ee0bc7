package dev.dtap.cache.cnode;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TestCircuitBreaker {
  private final AtomicLong clock = new AtomicLong(1_000);
  private final CircuitBreaker breaker = new CircuitBreaker(3, Duration.ofMillis(100), clock::get);

  @Test
  void opensAfterConsecutiveFailuresOnly() {
    breaker.failure();
    breaker.failure();
    breaker.success(); // a success in between starts the count again
    breaker.failure();
    breaker.failure();
    assertThat(breaker.allow()).isTrue();
    breaker.failure();
    assertThat(breaker.isOpen()).isTrue();
    assertThat(breaker.allow()).isFalse();
  }

  @Test
  void probesOnceAfterTheOpenTimeAndClosesOnSuccess() {
    for (int i = 0; i < 3; i++) {
      breaker.failure();
    }
    clock.addAndGet(Duration.ofMillis(99).toNanos());
    assertThat(breaker.allow()).isFalse();
    clock.addAndGet(Duration.ofMillis(1).toNanos());
    assertThat(breaker.allow()).as("the probe").isTrue();
    assertThat(breaker.allow()).as("one probe at a time").isFalse();
    breaker.success();
    assertThat(breaker.isOpen()).isFalse();
    assertThat(breaker.allow()).isTrue();
  }

  @Test
  void aFailedProbeOpensItAgainAtOnce() {
    for (int i = 0; i < 3; i++) {
      breaker.failure();
    }
    clock.addAndGet(Duration.ofMillis(100).toNanos());
    assertThat(breaker.allow()).isTrue();
    breaker.failure();
    assertThat(breaker.allow()).isFalse();
    clock.addAndGet(Duration.ofMillis(100).toNanos());
    assertThat(breaker.allow()).isTrue();
  }
}
