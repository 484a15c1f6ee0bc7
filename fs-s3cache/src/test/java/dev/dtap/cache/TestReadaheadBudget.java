package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The prefetch budget counts a page read ahead from its queueing until the reader takes it: pages
 * loaded and left waiting are heap too. Closing the stream gives back what it held.
 */
class TestReadaheadBudget {
  private static final int PAGE = 1000;
  private final BackgroundLoads loads = new BackgroundLoads(1, 3 * PAGE);
  private final AtomicInteger loaded = new AtomicInteger();
  private final Readahead readahead =
      new Readahead(
          loads,
          index -> {
            loaded.incrementAndGet();
            byte[] page = new byte[PAGE];
            page[0] = (byte) index;
            return page;
          },
          new CacheCounters(null, null));

  @AfterEach
  void tearDown() {
    loads.shutdown();
  }

  @Test
  void pagesLoadedAndNotTakenHoldTheBudgetUntilTakenOrClosed() throws Exception {
    for (int i = 0; i < 3; i++) {
      assertThat(readahead.queue(i, PAGE)).as("page %d", i).isTrue();
    }
    assertThat(readahead.queue(3, PAGE)).as("the budget is spent").isFalse();
    readahead.start();
    loads.awaitIdle();
    assertThat(loaded).hasValue(3);
    assertThat(readahead.queue(3, PAGE)).as("loaded pages not taken still count").isFalse();

    byte[] first = readahead.take(0);
    assertThat(first).hasSize(PAGE);
    assertThat(first[0]).isEqualTo((byte) 0);
    assertThat(readahead.queue(3, PAGE)).as("a page taken gives its bytes back").isTrue();
    assertThat(readahead.take(0)).as("taken once").isNull();

    readahead.close();
    loads.awaitIdle();
    assertThat(loads.reserve(3 * PAGE)).as("a closed stream holds nothing").isTrue();
  }
}
