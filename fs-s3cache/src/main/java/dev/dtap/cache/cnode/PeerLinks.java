package dev.dtap.cache.cnode;

import dev.dtap.cache.disk.PageKey;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The service's connections to its peers, one per peer host, made on first use and dropped when
 * they fail: a page missing here is asked of the service of the host that owns its block.
 *
 * <p>Thread-safe.
 */
final class PeerLinks {
  private final CnodeSettings settings;
  private final Bootstrap bootstrap;
  private final Map<String, CompletableFuture<ClientConnection>> links = new ConcurrentHashMap<>();

  /** One thread at most, gone when idle: peers are few and their names are resolved once. */
  private final ThreadPoolExecutor resolver =
      new ThreadPoolExecutor(
          0,
          1,
          30,
          TimeUnit.SECONDS,
          new LinkedBlockingQueue<>(),
          r -> {
            Thread t = new Thread(r, "dtap-cnode-peer-resolver");
            t.setDaemon(true);
            return t;
          });

  PeerLinks(CnodeSettings settings, EventLoopGroup group) {
    this.settings = settings;
    this.bootstrap = ClientTransport.tcp(group, settings.peerTimeout());
  }

  /**
   * Asks a peer for a page.
   *
   * @param host the owning host
   * @param key the page
   * @return the page file's bytes, or null when the peer does not have it; completes exceptionally
   *     when the peer cannot be reached or does not answer in time
   */
  CompletableFuture<byte[]> get(String host, PageKey key) {
    CompletableFuture<ClientConnection> link = link(host);
    CompletableFuture<byte[]> result = new CompletableFuture<>();
    link.whenComplete(
        (c, error) -> {
          if (error != null) {
            links.remove(host, link);
            result.completeExceptionally(error);
            return;
          }
          ByteBuf body = Unpooled.buffer(16).writeLong(key.hi()).writeLong(key.lo());
          ClientConnection.Call call = c.call(Wire.PEER_GET, body);
          call.answer.whenComplete(
              (f, e) -> {
                if (e != null) {
                  links.remove(host, link);
                  result.completeExceptionally(e);
                } else {
                  try {
                    if (f.type == Wire.PAGE) {
                      byte[] file = new byte[f.body.readableBytes()];
                      f.body.readBytes(file);
                      result.complete(file);
                    } else {
                      result.complete(null);
                    }
                  } finally {
                    f.release();
                  }
                }
              });
          c.channel()
              .eventLoop()
              .schedule(
                  () -> {
                    if (!call.answer.isDone()) {
                      c.abandon(call);
                      result.completeExceptionally(new IOException("the peer did not answer"));
                    }
                  },
                  settings.peerTimeout().toMillis(),
                  TimeUnit.MILLISECONDS);
        });
    return result;
  }

  /**
   * Hands a page to a peer, which keeps it unless it has it already; failures are ignored (the peer
   * reads the backend when its tasks need the page).
   *
   * @param host the owning host
   * @param key the page
   * @param data the page's bytes
   */
  void offer(String host, PageKey key, byte[] data) {
    link(host)
        .whenComplete(
            (c, error) -> {
              if (c != null) {
                ByteBuf body =
                    Unpooled.wrappedBuffer(
                        Unpooled.buffer(16).writeLong(key.hi()).writeLong(key.lo()),
                        Unpooled.wrappedBuffer(data));
                c.call(Wire.OFFER, body)
                    .answer
                    .whenComplete(
                        (f, e) -> {
                          if (f != null) {
                            f.release();
                          }
                        });
              }
            });
  }

  private CompletableFuture<ClientConnection> link(String host) {
    CompletableFuture<ClientConnection> link =
        links.compute(
            host,
            (h, existing) ->
                existing != null
                        && (!existing.isDone()
                            || (!existing.isCompletedExceptionally() && existing.join().isOpen()))
                    ? existing
                    : connect(h));
    link.whenComplete(
        (c, e) -> {
          if (e != null) {
            links.remove(host, link);
          }
        });
    return link;
  }

  private CompletableFuture<ClientConnection> connect(String host) {
    InetSocketAddress a = settings.peerAddress(host);
    CompletableFuture<ClientConnection> link = new CompletableFuture<>();
    // names are resolved off the event loops: a slow or unknown name would stall every connection
    // on the loop that asked
    resolver.execute(
        () -> {
          InetSocketAddress address = new InetSocketAddress(a.getHostString(), a.getPort());
          if (address.isUnresolved()) {
            link.completeExceptionally(new UnknownHostException("peer host " + host));
            return;
          }
          // a peer that takes the connection but never finishes the handshake (stopped, its
          // loops blocked) is given up at the deadline, which closes the connection
          ClientConnection.open(bootstrap, address, settings.secret())
              .orTimeout(settings.peerTimeout().toMillis(), TimeUnit.MILLISECONDS)
              .whenComplete(
                  (c, e) -> {
                    if (e != null) {
                      link.completeExceptionally(e);
                    } else {
                      link.complete(c);
                    }
                  });
        });
    return link;
  }
}
