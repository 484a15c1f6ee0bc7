package dev.dtap.cache.cnode;

import dev.dtap.cache.disk.PageKey;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests that read or reset what the service holds without taking part in fills: sightings, a
 * peer's page, a page's size, forgetting one page or all of them, and the operator's statistics.
 * Each answers through the asking connection; those that read files or many of them (sightings, a
 * peer's page, clears, statistics) run off the event loops, a size or a single delete on them.
 *
 * <p>Thread-safe.
 */
final class NodeQueries {
  private static final Logger LOG = LoggerFactory.getLogger(NodeQueries.class);

  private final CacheNode node;
  private final ExecutorService diskPool;

  NodeQueries(CacheNode node, ExecutorService diskPool) {
    this.node = node;
    this.diskPool = diskPool;
  }

  /** Answers whether a page was met before on this host, recording this meeting if asked. */
  void seen(ServerConnection c, long id, PageKey key, boolean record) {
    // the sightings are a file: off the event loop, and not behind the page writes queued on the
    // disk threads, which a client's short deadline would count as a late service
    try {
      node.sightingsThread()
          .execute(
              () -> {
                boolean seen =
                    record ? node.sightings().seenBefore(key) : node.sightings().contains(key);
                c.send(new Frame(Wire.OK, id, Unpooled.buffer(1).writeByte(seen ? 1 : 0)));
              });
    } catch (RejectedExecutionException e) {
      c.send(Wire.REFUSED, id); // stopping
    }
  }

  /** Sends a peer the page file as it lies on disk; the peer verifies it. */
  void peerGet(ServerConnection c, long id, PageKey key) {
    onDisk(() -> servePeer(c, id, key), () -> c.send(Wire.NOT_FOUND, id));
  }

  private void servePeer(ServerConnection c, long id, PageKey key) {
    byte[] file;
    try {
      file = Files.readAllBytes(node.disk().pathOf(key));
    } catch (IOException e) {
      c.send(Wire.NOT_FOUND, id); // not here, or unreadable: the peer reads the backend
      return;
    }
    node.metrics().peerServed.increment();
    node.metrics().bytesServed.add(file.length);
    c.send(new Frame(Wire.PAGE, id, Unpooled.wrappedBuffer(file)));
  }

  /** Answers a page file's size, or -1 when there is none. */
  void contains(ServerConnection c, long id, PageKey key) {
    long size;
    try {
      size = Files.size(node.disk().pathOf(key));
    } catch (IOException e) {
      size = -1;
    }
    c.send(new Frame(Wire.SIZE, id, Unpooled.buffer(8).writeLong(size)));
  }

  void forget(ServerConnection c, long id, PageKey key) {
    node.disk().delete(key);
    c.send(Wire.OK, id);
  }

  /** Drops every page and every sighting. */
  void clear(ServerConnection c, long id) {
    onDisk(
        () -> {
          try {
            node.disk().clear();
            node.sightings().clear();
          } catch (IOException e) {
            LOG.warn("dtap cnode: cannot clear the cache: {}", e.toString());
          }
          c.send(Wire.OK, id);
        },
        () -> c.send(Wire.REFUSED, id));
  }

  /**
   * Inspecting the directories stats every page file: seconds on a large cache, so off the loop.
   */
  void stats(ServerConnection c, long id) {
    onDisk(
        () -> {
          byte[] text = NodeMetrics.report(node).getBytes(StandardCharsets.UTF_8);
          c.send(new Frame(Wire.STATS_REPLY, id, Unpooled.wrappedBuffer(text)));
        },
        () -> c.send(Wire.REFUSED, id));
  }

  /** Runs disk work off the event loops; while stopping, {@code stopping} runs instead. */
  private void onDisk(Runnable work, Runnable stopping) {
    try {
      diskPool.execute(work);
    } catch (RejectedExecutionException e) {
      stopping.run();
    }
  }
}
