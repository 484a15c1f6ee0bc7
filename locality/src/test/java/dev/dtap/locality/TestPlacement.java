package dev.dtap.locality;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Balance, churn and determinism of placement on the ring, with the default 200 points per host.
 */
class TestPlacement {
  private static final int BLOCKS = 100_000;
  private static final int VNODES = 200;

  private static List<String> hosts(int n, String prefix) {
    List<String> hosts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      hosts.add(String.format("%s-%03d.cluster.example.com", prefix, i));
    }
    return hosts;
  }

  private static long[] keys(int count, long seed) {
    Random r = new Random(seed);
    long[] keys = new long[count];
    for (int i = 0; i < count; i++) {
      // realistic keys: many files of few blocks, hashed as the resolver does
      String path =
          "/warehouse/db"
              + r.nextInt(20)
              + "/table"
              + r.nextInt(200)
              + "/part-"
              + r.nextInt(100_000)
              + ".parquet";
      keys[i] = PlacementHash.blockKey("lake", path, r.nextInt(4));
    }
    return keys;
  }

  private static int[] firstHosts(Membership m, long[] keys) {
    int[] out = new int[keys.length];
    int[] owner = new int[1];
    for (int i = 0; i < keys.length; i++) {
      m.ring().locate(keys[i], owner);
      out[i] = owner[0];
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(ints = {10, 100})
  void loadIsBalanced(int n) {
    Membership m = Membership.of(hosts(n, "nm"), VNODES, "test");
    long[] keys = keys(BLOCKS, 7);
    int[] counts = new int[n];
    for (int owner : firstHosts(m, keys)) {
      counts[owner]++;
    }
    double mean = (double) BLOCKS / n;
    int max = 0;
    for (int c : counts) {
      max = Math.max(max, c);
    }
    System.out.printf("balance: N=%d blocks=%d max/mean=%.3f%n", n, BLOCKS, max / mean);
    assertThat(max / mean)
        .as("max/mean blocks per host over %d hosts", n)
        .isLessThanOrEqualTo(1.25);
  }

  @ParameterizedTest
  @ValueSource(ints = {10, 100})
  void aLeavingHostMovesOnlyItsOwnBlocks(int n) {
    List<String> all = hosts(n, "nm");
    long[] keys = keys(BLOCKS, 11);
    int[] before = firstHosts(Membership.of(all, VNODES, "test"), keys);
    Random r = new Random(n);
    double worst = 0;
    double sum = 0;
    int trials = 5;
    for (int t = 0; t < trials; t++) {
      List<String> fewer = new ArrayList<>(all);
      String leaving = fewer.remove(r.nextInt(fewer.size()));
      Membership after = Membership.of(fewer, VNODES, "test");
      int[] now = firstHosts(after, keys);
      Membership full = Membership.of(all, VNODES, "test");
      int moved = 0;
      for (int i = 0; i < keys.length; i++) {
        String was = full.host(before[i]);
        String is = after.host(now[i]);
        if (!was.equals(is)) {
          moved++;
          assertThat(was).as("only blocks of the leaving host move").isEqualTo(leaving);
        }
      }
      double fraction = (double) moved / keys.length;
      worst = Math.max(worst, fraction);
      sum += fraction;
    }
    System.out.printf(
        "leave: N=%d worst moved=%.4f mean moved=%.4f (1/N=%.4f)%n",
        n, worst, sum / trials, 1.0 / n);
    assertThat(worst).as("worst fraction moved, N=%d", n).isLessThanOrEqualTo(1.3 / n);
    assertThat(sum / trials).as("mean fraction moved, N=%d", n).isLessThanOrEqualTo(1.1 / n);
  }

  @ParameterizedTest
  @ValueSource(ints = {10, 100})
  void aJoiningHostTakesAboutItsShare(int n) {
    List<String> all = hosts(n, "nm");
    long[] keys = keys(BLOCKS, 13);
    Membership full = Membership.of(all, VNODES, "test");
    int[] before = firstHosts(full, keys);
    List<String> more = new ArrayList<>(all);
    more.add("newcomer.cluster.example.com");
    Membership after = Membership.of(more, VNODES, "test");
    int[] now = firstHosts(after, keys);
    int moved = 0;
    for (int i = 0; i < keys.length; i++) {
      String was = full.host(before[i]);
      String is = after.host(now[i]);
      if (!was.equals(is)) {
        moved++;
        assertThat(is)
            .as("blocks only move to the newcomer")
            .isEqualTo("newcomer.cluster.example.com");
      }
    }
    System.out.printf(
        "join: N=%d moved=%.4f (1/(N+1)=%.4f)%n", n, (double) moved / keys.length, 1.0 / (n + 1));
    assertThat((double) moved / keys.length).isLessThanOrEqualTo(1.3 / (n + 1));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 10})
  void replicasAreDistinctAndFewerWhenFewerHosts(int n) {
    Membership m = Membership.of(hosts(n, "nm"), VNODES, "test");
    int[] out = new int[3];
    for (long key : keys(2000, 3)) {
      int found = m.ring().locate(key, out);
      assertThat(found).isEqualTo(Math.min(3, n));
      Set<Integer> distinct = new HashSet<>();
      for (int i = 0; i < found; i++) {
        distinct.add(out[i]);
      }
      assertThat(distinct).hasSize(found);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {10, 100})
  void placementDoesNotDependOnOrderOrSpelling(int n) {
    List<String> hosts = hosts(n, "nm");
    List<String> shuffled = new ArrayList<>(hosts);
    Collections.shuffle(shuffled, new Random(5));
    List<String> shouting = new ArrayList<>();
    for (String h : shuffled) {
      shouting.add(h.toUpperCase(java.util.Locale.ROOT) + ".");
    }
    Membership a = Membership.of(hosts, VNODES, "a");
    Membership b = Membership.of(shouting, VNODES, "b");
    Map<Long, String> first = new HashMap<>();
    int[] out = new int[3];
    for (long key : keys(5000, 17)) {
      int found = a.ring().locate(key, out);
      StringBuilder sa = new StringBuilder();
      for (int i = 0; i < found; i++) {
        sa.append(a.host(out[i]).toLowerCase(java.util.Locale.ROOT)).append(',');
      }
      found = b.ring().locate(key, out);
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < found; i++) {
        sb.append(b.host(out[i]).toLowerCase(java.util.Locale.ROOT)).append(',');
      }
      assertThat(sb.toString()).isEqualTo(sa.toString());
      first.put(key, sa.toString());
    }
    assertThat(first).isNotEmpty();
  }
}
