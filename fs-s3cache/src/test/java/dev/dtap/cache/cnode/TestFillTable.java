package dev.dtap.cache.cnode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.cache.disk.PageKey;
import org.junit.jupiter.api.Test;

class TestFillTable {
  private final FillTable fills = new FillTable();
  private final PageKey key = new PageKey(1, 2);
  private final ServerConnection a = new ServerConnection(null, true);
  private final ServerConnection b = new ServerConnection(null, true);
  private final ServerConnection c = new ServerConnection(null, true);

  private FillTable.Outcome miss(ServerConnection who, long id) {
    return fills.miss(new FillTable.Waiter(who, id, true), key, k -> false, true, null);
  }

  @Test
  void oneClientFillsAndTheOthersWait() {
    assertThat(miss(a, 1)).isEqualTo(FillTable.Outcome.LEASE);
    long lease = fills.leaseOf(key, a);
    assertThat(lease).isPositive();
    assertThat(miss(b, 2)).isEqualTo(FillTable.Outcome.WAIT);
    assertThat(miss(c, 3)).isEqualTo(FillTable.Outcome.WAIT);
    assertThat(fills.claim(key, lease, b)).as("another's lease").isFalse();
    assertThat(fills.claim(key, lease + 1, a)).as("a stale lease").isFalse();
    assertThat(fills.claim(key, lease, a)).isTrue();
    FillTable.Done done = fills.complete(key);
    assertThat(done.waiters).extracting(w -> w.requestId).containsExactly(2L, 3L);
    assertThat(done.forwardTo).isNull();
    assertThat(fills.filling(key)).isFalse();
  }

  @Test
  void aFillerThatGivesUpHandsItsLeaseToTheFirstWaiter() {
    miss(a, 1);
    long lease = fills.leaseOf(key, a);
    miss(b, 2);
    miss(c, 3);
    FillTable.Handoff h = fills.abandon(key, lease, a);
    assertThat(h.to.connection).isSameAs(b);
    assertThat(h.lease).isNotEqualTo(lease);
    assertThat(fills.abandon(key, lease, a)).as("the old lease is gone").isNull();
    // the new holder disconnects: the last waiter gets it
    assertThat(fills.closed(b)).extracting(x -> x.to.connection).containsExactly(c);
    assertThat(fills.closed(c)).isEmpty();
    assertThat(fills.filling(key)).isFalse();
  }

  @Test
  void aPageBeingStoredIsNotHandedOffButAFailedStoreIs() {
    miss(a, 1);
    long lease = fills.leaseOf(key, a);
    miss(b, 2);
    assertThat(fills.claim(key, lease, a)).isTrue();
    assertThat(fills.abandon(key, lease, a)).as("the lease lapsing while storing").isNull();
    FillTable.Handoff h = fills.storeFailed(key);
    assertThat(h.to.connection).isSameAs(b);
  }

  @Test
  void aPeerIsAskedFirstAndItsMissLeasesToTheWaiter() {
    FillTable.Waiter w = new FillTable.Waiter(a, 1, true);
    assertThat(fills.miss(w, key, k -> false, true, "owner-host"))
        .isEqualTo(FillTable.Outcome.ASK_PEER);
    assertThat(miss(b, 2)).isEqualTo(FillTable.Outcome.WAIT);
    FillTable.Handoff h = fills.abandon(key, 0, null);
    assertThat(h.to).isSameAs(w);
    assertThat(fills.claim(key, h.lease, a)).isTrue();
    assertThat(fills.complete(key).forwardTo)
        .as("the owner gets what a client filled")
        .isEqualTo("owner-host");
  }

  @Test
  void aPageThatLandedMeanwhileIsPresentAndAWaiterThatTimedOutIsRemoved() {
    assertThat(fills.miss(new FillTable.Waiter(a, 1, true), key, k -> true, true, null))
        .isEqualTo(FillTable.Outcome.PRESENT);
    assertThat(fills.miss(new FillTable.Waiter(a, 1, true), key, k -> false, false, null))
        .isEqualTo(FillTable.Outcome.MISS);
    miss(a, 1);
    FillTable.Waiter w = new FillTable.Waiter(b, 2, true);
    fills.miss(w, key, k -> false, true, null);
    assertThat(fills.expire(key, w)).isTrue();
    assertThat(fills.expire(key, w)).isFalse();
    assertThat(fills.complete(key).waiters).isEmpty();
  }
}
