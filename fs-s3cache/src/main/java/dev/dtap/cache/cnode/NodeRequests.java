package dev.dtap.cache.cnode;

import dev.dtap.cache.disk.PageFile;
import dev.dtap.cache.disk.PageKey;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the service does for each request: lookups (a hit, a wait for a fill, a lease to fill, or a
 * miss), fills and offers stored through {@link PageWrites}, and peer asks here; the requests that
 * only read or reset what the service holds in {@link NodeQueries}. Answers go back through the
 * asking connection.
 *
 * <p>Thread-safe.
 */
final class NodeRequests {
  private static final Logger LOG = LoggerFactory.getLogger(NodeRequests.class);

  private final CacheNode node;
  private final FillTable fills;
  private final PeerLinks peers;
  private final NodeQueries queries;

  private final PageWrites writes;

  NodeRequests(CacheNode node, FillTable fills, ExecutorService diskPool, PeerLinks peers) {
    this.node = node;
    this.fills = fills;
    this.peers = peers;
    this.writes = new PageWrites(node, diskPool);
    this.queries = new NodeQueries(node, diskPool);
  }

  void dispatch(ServerConnection c, Frame f) throws ServerConnection.ProtocolException {
    ByteBuf b = f.body;
    switch (f.type) {
      case Wire.BIND:
        bind(c, f.requestId, need(b, 8).readLong());
        break;
      case Wire.LOOKUP:
        {
          PageKey key = key(b);
          int flags = need(b, 1).readUnsignedByte();
          String owner = text(b);
          lookup(c, f.requestId, key, flags, owner);
          break;
        }
      case Wire.FILL:
        {
          long lease = need(b, 8).readLong();
          fill(c, f.requestId, lease, key(b), page(b));
          break;
        }
      case Wire.ABORT_FILL:
        {
          long lease = need(b, 8).readLong();
          handOff(fills.abandon(key(b), lease, c));
          break;
        }
      case Wire.OFFER:
        offer(c, f.requestId, key(b), page(b));
        break;
      case Wire.RELEASE:
        c.release(key(b));
        break;
      case Wire.CORRUPT:
        node.disk().corrupt(key(b));
        break;
      case Wire.PEER_GET:
        queries.peerGet(c, f.requestId, key(b));
        break;
      case Wire.CONTAINS:
        queries.contains(c, f.requestId, key(b));
        break;
      case Wire.SEEN:
        {
          PageKey key = key(b);
          queries.seen(c, f.requestId, key, (need(b, 1).readUnsignedByte() & Wire.RECORD) != 0);
          break;
        }
      case Wire.FORGET:
        queries.forget(c, f.requestId, key(b));
        break;
      case Wire.CLEAR:
        queries.clear(c, f.requestId);
        break;
      case Wire.STATS:
        queries.stats(c, f.requestId);
        break;
      default:
        throw new ServerConnection.ProtocolException("unexpected frame type " + f.type);
    }
  }

  private static ByteBuf need(ByteBuf b, int bytes) throws ServerConnection.ProtocolException {
    if (b.readableBytes() < bytes) {
      throw new ServerConnection.ProtocolException("a short request");
    }
    return b;
  }

  private static PageKey key(ByteBuf b) throws ServerConnection.ProtocolException {
    need(b, 16);
    return new PageKey(b.readLong(), b.readLong());
  }

  private static String text(ByteBuf b) throws ServerConnection.ProtocolException {
    int n = need(b, 2).readUnsignedShort();
    return need(b, n).readCharSequence(n, StandardCharsets.UTF_8).toString();
  }

  private static byte[] page(ByteBuf b) throws ServerConnection.ProtocolException {
    int n = b.readableBytes();
    if (n > PageFile.MAX_PAGE) {
      throw new ServerConnection.ProtocolException("a page of " + n + " bytes");
    }
    byte[] data = new byte[n];
    b.readBytes(data);
    return data;
  }

  private void bind(ServerConnection c, long requestId, long session) {
    ServerConnection data = node.session(session);
    if (data == null || data == c || !node.passesDescriptors()) {
      c.send(Wire.REFUSED, requestId);
      return;
    }
    c.bindTo(data);
    c.send(Wire.BOUND, requestId);
  }

  private void lookup(ServerConnection c, long id, PageKey key, int flags, String owner) {
    NodeMetrics m = node.metrics();
    m.lookups.increment();
    boolean wantFd = (flags & Wire.WANT_DESCRIPTOR) != 0;
    if (c.deliver(id, key, wantFd)) { // a hit, counted where it is served
      return;
    }
    m.misses.increment();
    String peer =
        owner.isEmpty()
                || owner.equals(node.settings().host())
                || node.settings().peerAddress(owner).getPort() == 0
            ? null
            : owner;
    FillTable.Waiter w = new FillTable.Waiter(c, id, wantFd);
    switch (fills.miss(w, key, node.disk()::contains, (flags & Wire.MAY_FILL) != 0, peer)) {
      case PRESENT:
        // the page landed between the first look and the fill table's: still a hit
        serveOrMiss(c, id, key, wantFd);
        break;
      case WAIT:
        m.fillWaits.increment();
        await(w, key);
        break;
      case ASK_PEER:
        m.fillWaits.increment();
        await(w, key);
        askPeer(owner, key);
        break;
      case LEASE:
        m.leases.increment();
        lease(c, id, key, fills.leaseOf(key, c));
        break;
      default:
        c.sendFlagged(Wire.MISS, id);
    }
  }

  private void await(FillTable.Waiter w, PageKey key) {
    w.connection.send(Wire.WAITING, w.requestId);
    w.timeout =
        w.connection
            .channel()
            .eventLoop()
            .schedule(
                () -> {
                  if (fills.expire(key, w)) {
                    node.metrics().fillTimeouts.increment();
                    w.connection.sendFlagged(Wire.MISS, w.requestId);
                  }
                },
                node.settings().fillWait().toMillis(),
                TimeUnit.MILLISECONDS);
  }

  private void lease(ServerConnection c, long requestId, PageKey key, long lease) {
    c.sendLease(requestId, lease, key);
    c.channel()
        .eventLoop()
        .schedule(
            () -> handOff(fills.abandon(key, lease, c)),
            node.settings().fillLease().toMillis(),
            TimeUnit.MILLISECONDS);
  }

  private void handOff(FillTable.Handoff h) {
    if (h == null) {
      return;
    }
    if (h.to.timeout != null) {
      h.to.timeout.cancel(false);
    }
    node.metrics().leases.increment();
    lease(h.to.connection, h.to.requestId, h.key, h.lease);
  }

  private void askPeer(String owner, PageKey key) {
    node.metrics().peerAsked.increment();
    peers
        .get(owner, key)
        .whenComplete(
            (file, error) -> {
              byte[] data = null;
              if (file != null) {
                try {
                  data = PageFile.decode(file, key);
                } catch (PageFile.CorruptPageException e) {
                  LOG.debug("dtap cnode: a peer's page failed verification");
                }
              }
              if (data != null && fills.claim(key, 0, null)) {
                node.metrics().peerHits.increment();
                store(key, data, null, 0);
              } else {
                // the peer has no page (or is away): a waiter reads the backend
                handOff(fills.abandon(key, 0, null));
              }
            });
  }

  private void fill(ServerConnection c, long id, long lease, PageKey key, byte[] data) {
    if (!fills.claim(key, lease, c)) {
      c.send(Wire.REFUSED, id);
      return;
    }
    store(key, data, c, id);
  }

  /**
   * Writes a page ({@link PageWrites}), then answers the filler and everyone waiting for it; a page
   * that did not land in time is refused to the filler, and its fill passes to a waiter.
   */
  private void store(PageKey key, byte[] data, ServerConnection filler, long id) {
    writes
        .write(key, data, () -> true)
        .thenAccept(
            landed -> {
              if (!landed) {
                if (filler != null) {
                  filler.send(Wire.REFUSED, id);
                }
                handOff(fills.storeFailed(key));
                return;
              }
              node.metrics().fills.increment();
              node.metrics().bytesFilled.add(data.length);
              if (filler != null) {
                filler.send(Wire.OK, id);
              }
              FillTable.Done done = fills.complete(key);
              answerWaiters(done.waiters, key);
              if (done.forwardTo != null) {
                // a block cached anywhere is read from the store once: its owner keeps it too
                node.metrics().peerOffersSent.increment();
                peers.offer(done.forwardTo, key, data);
              }
            });
  }

  private void answerWaiters(List<FillTable.Waiter> waiters, PageKey key) {
    for (FillTable.Waiter w : waiters) {
      if (w.timeout != null) {
        w.timeout.cancel(false);
      }
      serveOrMiss(w.connection, w.requestId, key, w.wantDescriptor);
    }
  }

  /** Answers a lookup that found the page's fill over: the page, or a miss if it did not land. */
  private void serveOrMiss(
      ServerConnection c, long requestId, PageKey key, boolean wantDescriptor) {
    if (!c.deliver(requestId, key, wantDescriptor)) {
      c.sendFlagged(Wire.MISS, requestId);
    }
  }

  private void offer(ServerConnection c, long id, PageKey key, byte[] data) {
    if (node.disk().contains(key) || fills.filling(key)) {
      node.metrics().offers.increment();
      c.send(Wire.OK, id);
      return;
    }
    // an offer is a favour: dropped while the disk is behind or late
    writes
        .write(key, data, () -> !fills.filling(key))
        .thenAccept(
            landed -> {
              if (landed) {
                node.metrics().bytesFilled.add(data.length);
              }
              node.metrics().offers.increment();
              c.send(Wire.OK, id);
            });
  }

  void closed(ServerConnection c) {
    for (FillTable.Handoff h : fills.closed(c)) {
      handOff(h);
    }
  }
}
