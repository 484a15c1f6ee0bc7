package dev.dtap.cache.cnode;

import dev.dtap.cache.disk.PageKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Predicate;

/**
 * The pages being filled on this host: per page, who fills it (a client holding a lease, or a peer
 * service being asked) and who waits for it. N clients missing one page at once cause one fill; the
 * others wait, and when a filler gives up (fails, disconnects, lets its lease lapse) the lease
 * passes to the first waiter, so a page is still read once.
 *
 * <p>Thread-safe: one lock; callers answer clients outside it.
 */
final class FillTable {
  /** A request waiting for a fill. */
  static final class Waiter {
    final ServerConnection connection;
    final long requestId;
    final boolean wantDescriptor;
    ScheduledFuture<?> timeout;

    Waiter(ServerConnection connection, long requestId, boolean wantDescriptor) {
      this.connection = connection;
      this.requestId = requestId;
      this.wantDescriptor = wantDescriptor;
    }
  }

  /** A lease handed to a waiter when the previous filler gave up. */
  static final class Handoff {
    final PageKey key;
    final Waiter to;
    final long lease;

    Handoff(PageKey key, Waiter to, long lease) {
      this.key = key;
      this.to = to;
      this.lease = lease;
    }
  }

  /** What a miss leads to. */
  enum Outcome {
    /** the page is on disk after all: deliver it */
    PRESENT,
    /** another fill runs: the request waits */
    WAIT,
    /** ask the owning peer; the request waits */
    ASK_PEER,
    /** the client fills it under a new lease */
    LEASE,
    /** the client reads it and nothing is kept */
    MISS
  }

  private static final class Fill {
    ServerConnection holder; // null while a peer is asked
    long lease;
    final List<Waiter> waiters = new ArrayList<>();
    boolean storing;
    String owner; // the owning peer, asked first; it gets the page a client fills
    boolean fromOwner;
  }

  /** A fill that ended with its page on disk. */
  static final class Done {
    final List<Waiter> waiters;
    final String forwardTo;

    Done(List<Waiter> waiters, String forwardTo) {
      this.waiters = waiters;
      this.forwardTo = forwardTo;
    }
  }

  private final Map<PageKey, Fill> fills = new HashMap<>();
  private long nextLease = 1;

  /**
   * Decides what a miss leads to, and records it.
   *
   * @param waiter the request
   * @param key the page
   * @param onDisk whether the page is on disk now (checked under the lock, against a racing fill)
   * @param mayFill whether the client may fill it
   * @param owner the peer that owns the page's block, to ask first, or null
   * @return the outcome; for {@link Outcome#LEASE} read the lease with {@link #leaseOf}
   */
  synchronized Outcome miss(
      Waiter waiter, PageKey key, Predicate<PageKey> onDisk, boolean mayFill, String owner) {
    Fill f = fills.get(key);
    if (f != null) {
      f.waiters.add(waiter);
      return Outcome.WAIT;
    }
    if (onDisk.test(key)) {
      return Outcome.PRESENT;
    }
    if (owner != null) {
      f = new Fill();
      f.owner = owner;
      f.waiters.add(waiter);
      fills.put(key, f);
      return Outcome.ASK_PEER;
    }
    if (!mayFill) {
      return Outcome.MISS;
    }
    f = new Fill();
    f.holder = waiter.connection;
    f.lease = nextLease++;
    fills.put(key, f);
    return Outcome.LEASE;
  }

  /**
   * @return the lease of a page's fill held by a connection, or -1
   */
  synchronized long leaseOf(PageKey key, ServerConnection holder) {
    Fill f = fills.get(key);
    return f != null && f.holder == holder ? f.lease : -1;
  }

  /**
   * Claims a fill for storing the page its holder (or a peer, with {@code holder} null and lease 0)
   * handed over.
   *
   * @return whether the lease is current; a stale one is refused
   */
  synchronized boolean claim(PageKey key, long lease, ServerConnection holder) {
    Fill f = fills.get(key);
    if (f == null || f.storing || f.holder != holder || (holder != null && f.lease != lease)) {
      return false;
    }
    f.storing = true;
    f.fromOwner = holder == null;
    return true;
  }

  /**
   * Ends a fill whose page is now on disk.
   *
   * @return the requests waiting for it, to answer, and the owning peer to hand the page to when it
   *     came from a client (so that the owner, which tasks of the block are placed on, has it)
   */
  synchronized Done complete(PageKey key) {
    Fill f = fills.remove(key);
    return f == null
        ? new Done(new ArrayList<>(), null)
        : new Done(f.waiters, f.fromOwner ? null : f.owner);
  }

  /**
   * Ends a filler's attempt (failure, disconnection, lapsed lease, a peer without the page): the
   * lease passes to the first waiter, or the fill ends when nobody waits.
   *
   * @param key the page
   * @param lease the lease given up (ignored for a peer's attempt)
   * @param holder the connection giving up, or null for a peer's attempt
   * @return the handoff to announce, or null
   */
  synchronized Handoff abandon(PageKey key, long lease, ServerConnection holder) {
    Fill f = fills.get(key);
    if (f == null || f.storing || f.holder != holder || (holder != null && f.lease != lease)) {
      return null; // a page being stored is not abandoned: it lands, or storeFailed says so
    }
    return handOff(key, f);
  }

  /**
   * Ends a fill whose page could not be stored: as {@link #abandon}.
   *
   * @return the handoff to announce, or null
   */
  synchronized Handoff storeFailed(PageKey key) {
    Fill f = fills.get(key);
    return f == null ? null : handOff(key, f);
  }

  private Handoff handOff(PageKey key, Fill f) {
    if (f.waiters.isEmpty()) {
      fills.remove(key);
      return null;
    }
    Waiter next = f.waiters.remove(0);
    f.holder = next.connection;
    f.lease = nextLease++;
    f.storing = false;
    return new Handoff(key, next, f.lease);
  }

  /**
   * Removes a waiter whose wait timed out.
   *
   * @return whether it was still waiting (and must now be answered)
   */
  synchronized boolean expire(PageKey key, Waiter w) {
    Fill f = fills.get(key);
    return f != null && f.waiters.remove(w);
  }

  /**
   * Forgets a closed connection: its waits end, and its fills are abandoned.
   *
   * @return the handoffs to announce
   */
  synchronized List<Handoff> closed(ServerConnection c) {
    List<Handoff> handoffs = new ArrayList<>();
    List<Map.Entry<PageKey, Fill>> held = new ArrayList<>();
    for (Iterator<Map.Entry<PageKey, Fill>> it = fills.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<PageKey, Fill> e = it.next();
      e.getValue().waiters.removeIf(w -> w.connection == c);
      if (e.getValue().holder == c) {
        held.add(e);
      }
    }
    for (Map.Entry<PageKey, Fill> e : held) {
      Handoff h = abandon(e.getKey(), e.getValue().lease, c);
      if (h != null) {
        handoffs.add(h);
      }
    }
    return handoffs;
  }

  /**
   * @return whether a page is being filled
   */
  synchronized boolean filling(PageKey key) {
    return fills.containsKey(key);
  }

  /**
   * @return pages being filled now
   */
  synchronized int size() {
    return fills.size();
  }
}
