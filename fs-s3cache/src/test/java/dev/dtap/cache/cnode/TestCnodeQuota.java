package dev.dtap.cache.cnode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.cache.disk.PageKey;
import dev.dtap.fs.testing.Await;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The service's disk stays within its quota while 64 clients fill a full cache and hold short-
 * circuit descriptors (pins) of what they read: pinned pages and pages being written count against
 * the quota, so the disk never holds more than it, and pages that find no room are not written.
 */
class TestCnodeQuota {
  private static final int CLIENTS = 64;
  private static final int PAGES_PER_CLIENT = 12;
  private static final int HELD_PER_CLIENT = 2;
  private static final int PAGE = 64 << 10;

  private CnodeTestSupport support;
  private CacheNode node;
  private final List<CnodeClient> clients = new ArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    support = new CnodeTestSupport("quota");
    // 4 MiB: room for about 60 pages, fewer than the 128 the clients hold at once
    support.conf.set("fs.dtap.cache.max.size", "4m");
    support.conf.set(CnodeKeys.FILL_WAIT.name(), "1m");
    node = support.start();
  }

  @AfterEach
  void tearDown() {
    clients.forEach(CnodeClient::close);
    if (node != null) {
      node.close();
    }
  }

  @Test
  void theQuotaHoldsWhileSixtyFourClientsFillAFullCacheAndHoldPages() throws Exception {
    long quota = node.stats().get("cnode_bytes_quota");
    assertThat(quota).isEqualTo(4L << 20);
    for (int i = 0; i < CLIENTS; i++) {
      clients.add(support.client());
    }
    AtomicLong mostUsed = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    try {
      List<Future<Integer>> held = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        held.add(pool.submit(() -> fillAndHold(client, mostUsed)));
      }
      int pins = 0;
      for (Future<Integer> f : held) {
        pins += f.get(5, TimeUnit.MINUTES);
      }
      long used = node.stats().get("cnode_bytes_used");
      mostUsed.accumulateAndGet(used, Math::max);
      System.out.printf(
          "cnode quota: %d clients, %d pages held at the end; most bytes used %d of %d (%.1f%%);"
              + " %d pages written, %d not written for want of room, %d evicted%n",
          CLIENTS,
          pins,
          mostUsed.get(),
          quota,
          100.0 * mostUsed.get() / quota,
          node.stats().get("cnode_fills"),
          node.stats().get("cnode_writes_no_room"),
          node.stats().get("cnode_evictions"));
      assertThat(mostUsed.get()).as("bytes on disk, at every look").isLessThanOrEqualTo(quota);
      assertThat(CLIENTS * HELD_PER_CLIENT * (long) PAGE)
          .as("the clients would hold more than the quota keeps")
          .isGreaterThan(quota);
      assertThat(node.stats().get("cnode_writes_no_room"))
          .as("pages that found the quota held by readers")
          .isPositive();
      assertThat(pins).isLessThanOrEqualTo((int) (quota / PAGE));

      // the readers let go: the room was theirs, and pages land again (unpinned ones evicted)
      for (CnodeClient c : clients) {
        c.close();
      }
      clients.clear();
      CnodeClient after = support.client();
      clients.add(after);
      long fills = node.stats().get("cnode_fills");
      long[] next = {1};
      Await.until(
          "a page written once the readers let go",
          Duration.ofSeconds(60),
          () -> {
            PageKey key = new PageKey(CLIENTS + 1, next[0]++);
            PageLookup l = after.lookup(key, true, null);
            if (l.lease() > 0) {
              after.fill(l.lease(), key, new byte[PAGE]);
              after.flush();
            }
            return node.stats().get("cnode_fills") > fills;
          });
      assertThat(node.stats().get("cnode_bytes_used")).isLessThanOrEqualTo(quota);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * One client: fills its own pages one by one, keeping a descriptor of the last few it could read
   * back (as a reader holding pages open), and looks at the disk's use after each fill.
   *
   * @return the descriptors it holds at the end
   */
  private int fillAndHold(int client, AtomicLong mostUsed) throws Exception {
    CnodeClient c = clients.get(client);
    Random random = new Random(client);
    List<PageLookup> holding = new ArrayList<>();
    List<PageKey> holdingKeys = new ArrayList<>();
    for (int p = 0; p < PAGES_PER_CLIENT; p++) {
      PageKey key = new PageKey(client + 1, p + 1);
      byte[] page = new byte[PAGE];
      random.nextBytes(page);
      PageLookup lookup = c.lookup(key, true, null);
      if (lookup.lease() > 0) {
        c.fill(lookup.lease(), key, page);
        c.flush();
      }
      mostUsed.accumulateAndGet(node.stats().get("cnode_bytes_used"), Math::max);
      PageLookup hit = c.lookup(key, false, null);
      if (hit.channel() != null) {
        holding.add(hit);
        holdingKeys.add(key);
        if (holding.size() > HELD_PER_CLIENT) {
          holding.remove(0).channel().channel().close();
          c.release(holdingKeys.remove(0));
        }
      }
    }
    return holding.size();
  }
}
