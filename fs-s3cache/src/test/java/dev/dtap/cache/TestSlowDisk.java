package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestSlowDisk {
  private static final long MS = 1_000_000L;
  private static final long DEADLINE = 500 * MS;

  private final SlowDisk slow = new SlowDisk(DEADLINE);

  @Test
  void operationsWithinTheDeadlineConfirmNothing() {
    assertThat(slow.confirms(0, DEADLINE)).isFalse();
    assertThat(slow.confirms(DEADLINE, 2 * DEADLINE)).isFalse();
    assertThat(slow.confirms(3 * DEADLINE, 4 * DEADLINE)).isFalse();
  }

  @Test
  void oneSlowOperationIsNotASlowDisk() {
    assertThat(slow.confirms(0, 900 * MS)).isFalse();
    assertThat(slow.confirms(1_000 * MS, 1_010 * MS)).as("a fast one after it").isFalse();
  }

  @Test
  void aSlowOperationBegunAfterTheFirstSlowOneEndedConfirmsIt() {
    assertThat(slow.confirms(0, 900 * MS)).isFalse();
    assertThat(slow.confirms(2_000 * MS, 2_010 * MS)).isFalse();
    assertThat(slow.confirms(3_000 * MS, 3_600 * MS)).isTrue();
  }

  @Test
  void slowOperationsInFlightDuringOnePauseAreOneEpisode() {
    // three operations in flight when a 2 s pause stops the JVM, reported as they end
    assertThat(slow.confirms(0, 2_100 * MS)).isFalse();
    assertThat(slow.confirms(50 * MS, 2_150 * MS)).isFalse();
    assertThat(slow.confirms(1_900 * MS, 2_120 * MS))
        .as("fast: begun just before it ended")
        .isFalse();
    assertThat(slow.confirms(20 * MS, 2_110 * MS)).isFalse();
    assertThat(slow.confirms(2_200 * MS, 2_300 * MS)).as("fast, after the pause").isFalse();
  }

  @Test
  void aSlowOperationBegunAfterThePauseConfirms() {
    assertThat(slow.confirms(0, 2_100 * MS)).isFalse();
    assertThat(slow.confirms(50 * MS, 2_150 * MS)).isFalse();
    assertThat(slow.confirms(2_120 * MS, 2_700 * MS)).as("begun after the first ended").isTrue();
  }

  @Test
  void twoThreadsOnAStaySlowDiskConfirmIt() {
    // staggered 600 ms operations of two threads, reported as they end
    assertThat(slow.confirms(0, 600 * MS)).isFalse();
    assertThat(slow.confirms(300 * MS, 900 * MS)).isFalse();
    assertThat(slow.confirms(600 * MS, 1_200 * MS)).isTrue();
  }

  @Test
  void aSecondSlowOperationLongAfterTheFirstStartsOver() {
    long late = 1_000 * MS + SlowDisk.CONFIRM_WINDOW_NANOS + MS;
    assertThat(slow.confirms(0, 1_000 * MS)).isFalse();
    assertThat(slow.confirms(late, late + DEADLINE + MS)).as("outside the window").isFalse();
    long next = late + 2 * DEADLINE;
    assertThat(slow.confirms(next, next + DEADLINE + MS)).as("confirms the second").isTrue();
  }

  @Test
  void aConfirmationNeedsTwoSlowOperationsAgain() {
    assertThat(slow.confirms(0, 600 * MS)).isFalse();
    assertThat(slow.confirms(700 * MS, 1_300 * MS)).isTrue();
    assertThat(slow.confirms(1_400 * MS, 2_000 * MS)).isFalse();
    assertThat(slow.confirms(2_100 * MS, 2_700 * MS)).isTrue();
  }

  @Test
  void operationsInFlightWithTheConfirmingOneCountForNothing() {
    assertThat(slow.confirms(0, 600 * MS)).isFalse();
    assertThat(slow.confirms(700 * MS, 1_300 * MS)).isTrue();
    assertThat(slow.confirms(1_000 * MS, 1_600 * MS)).as("begun before it ended").isFalse();
    assertThat(slow.confirms(1_700 * MS, 2_300 * MS)).as("a new first").isFalse();
    assertThat(slow.confirms(2_400 * MS, 3_000 * MS)).isTrue();
  }

  @Test
  void aClockWrappingBetweenTwoOperationsIsCompared() {
    long start = Long.MAX_VALUE - 650 * MS;
    assertThat(slow.confirms(start, start + 600 * MS)).isFalse();
    long next = start + 700 * MS; // past the wrap: negative
    assertThat(next).isNegative();
    assertThat(slow.confirms(next, next + 600 * MS)).isTrue();
  }
}
