package dev.dtap.cache.disk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class TestScanDoorkeeper {
  /** Random page keys, the same for a seed. */
  static List<PageKey> keys(int n, long seed) {
    Random r = new Random(seed);
    List<PageKey> keys = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      keys.add(new PageKey(r.nextLong() | 1, r.nextLong()));
    }
    return keys;
  }

  @Test
  void aPageIsSeenTheSecondTimeAndForgottenAfterAClear() {
    ScanDoorkeeper d = new ScanDoorkeeper();
    List<PageKey> keys = keys(50_000, 1);
    int firstSightings = 0;
    for (PageKey k : keys) {
      if (!d.seenBefore(k)) {
        firstSightings++;
      }
    }
    assertThat(firstSightings).isGreaterThan(49_800); // a few hash collisions at most
    assertThat(keys).allMatch(d::contains);

    d.clear();

    assertThat(keys).noneMatch(d::contains);
    assertThat(d.seenBefore(keys.get(0))).isFalse();
    assertThat(d.seenBefore(keys.get(0))).isTrue();
  }

  @Test
  void aClearDuringConcurrentSightingsLeavesNothingBehindForTheNextClear() throws Exception {
    ScanDoorkeeper d = new ScanDoorkeeper();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        List<PageKey> mine = keys(20_000, 10 + t);
        writers.add(pool.submit(() -> mine.forEach(d::seenBefore)));
      }
      for (int i = 0; i < 20; i++) {
        d.clear();
      }
      for (Future<?> w : writers) {
        w.get();
      }
    } finally {
      pool.shutdown();
    }

    d.clear(); // every bit set, whenever it was set, is marked and so cleared

    for (int t = 0; t < 4; t++) {
      assertThat(keys(20_000, 10 + t)).noneMatch(d::contains);
    }
  }
}
