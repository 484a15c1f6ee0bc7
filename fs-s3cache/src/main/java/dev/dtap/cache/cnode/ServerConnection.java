package dev.dtap.cache.cnode;

import dev.dtap.cache.disk.PageKey;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.unix.FileDescriptor;
import io.netty.handler.codec.DecoderException;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's side of one connection: the handshake, then requests dispatched to the {@link
 * CacheNode}, and answers written back. A connection that fails authentication, sends a malformed
 * or unexpected frame, or breaks the sequence is counted and closed; nothing it sent is used as a
 * path. Descriptors of the pages it is handed go out on a second connection bound to this one.
 *
 * <p>Netty calls it on the connection's event loop; the delivery methods may be called from any
 * thread.
 */
final class ServerConnection extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(ServerConnection.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final CacheNode node;
  private final boolean domainSocket;
  private final byte[] serverNonce = new byte[Wire.NONCE_LENGTH];
  private Channel channel;
  private boolean authenticated;
  private long sessionId;

  /** Where descriptors go, once a second connection bound itself to this one. */
  private volatile Channel descriptors;

  /** Numbers the descriptors sent; only the descriptor line's event loop touches it. */
  private int descriptorSequence;

  /** Pages whose descriptors this connection holds, with how many times. */
  private final Map<PageKey, Integer> pins = new HashMap<>();

  /** Set once the connection is gone; guarded by this, as {@link #pins} is. */
  private boolean closed;

  /**
   * Hits served as bytes on this connection and not yet written to its socket (read, queued or in
   * Netty's outbound buffer): at most {@link #BYTE_HITS_IN_FLIGHT}, so a client that reads slowly
   * holds a bounded number of pages in the service's heap; past it a hit is answered as a miss.
   */
  private final AtomicInteger byteHitsInFlight = new AtomicInteger();

  static final int BYTE_HITS_IN_FLIGHT = 16;

  ServerConnection(CacheNode node, boolean domainSocket) {
    this.node = node;
    this.domainSocket = domainSocket;
  }

  Channel channel() {
    return channel;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    node.metrics().connections.increment();
    RANDOM.nextBytes(serverNonce);
    ByteBuf hello = Unpooled.buffer(2 + Wire.NONCE_LENGTH);
    hello.writeByte(Wire.VERSION);
    hello.writeBytes(serverNonce);
    hello.writeByte(domainSocket && node.passesDescriptors() ? 1 : 0);
    ctx.writeAndFlush(new Frame(Wire.HELLO, 0, hello));
    // a client that never authenticates is dropped
    ctx.executor()
        .schedule(
            () -> {
              if (!authenticated && ctx.channel().isActive()) {
                node.metrics().handshakeTimeouts.increment();
                ctx.close();
              }
            },
            Math.max(1000, node.settings().connectTimeout().toMillis() * 20),
            TimeUnit.MILLISECONDS);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    Frame f = (Frame) msg;
    try {
      if (!authenticated) {
        authenticate(ctx, f);
      } else {
        node.dispatch(this, f);
      }
    } catch (ProtocolException e) {
      node.metrics().protocolErrors.increment();
      LOG.debug("dtap cnode: closing a connection: {}", e.getMessage());
      ctx.close();
    } finally {
      f.release();
    }
  }

  private void authenticate(ChannelHandlerContext ctx, Frame f) throws ProtocolException {
    ByteBuf b = f.body;
    if (f.type != Wire.AUTH || b.readableBytes() < 1 + Wire.NONCE_LENGTH + 32) {
      fail(ctx);
      return;
    }
    int version = b.readUnsignedByte();
    byte[] clientNonce = new byte[Wire.NONCE_LENGTH];
    b.readBytes(clientNonce);
    byte[] proof = new byte[32];
    b.readBytes(proof);
    byte[] expected = SessionMac.proof(node.settings().secret(), "auth", serverNonce, clientNonce);
    if (version != Wire.VERSION || !SessionMac.equal(expected, proof)) {
      fail(ctx);
      return;
    }
    sessionId = node.register(this);
    ByteBuf ok = Unpooled.buffer();
    ok.writeBytes(SessionMac.proof(node.settings().secret(), "server", clientNonce, serverNonce));
    ok.writeLong(sessionId);
    ok.writeByte((node.hasRoom() ? Wire.ROOM : 0) | Wire.KEEPS_SIGHTINGS);
    byte[] host = node.settings().host().getBytes(StandardCharsets.UTF_8);
    ok.writeShort(host.length);
    ok.writeBytes(host);
    ctx.writeAndFlush(new Frame(Wire.AUTH_OK, f.requestId, ok));
    // every frame from here on is sealed and verified
    ctx.channel()
        .attr(FrameCodec.SESSION)
        .set(SessionMac.session(node.settings().secret(), serverNonce, clientNonce, true));
    authenticated = true;
  }

  private void fail(ChannelHandlerContext ctx) {
    node.metrics().authFailures.increment();
    ctx.close();
  }

  /**
   * Makes this connection the descriptor line of another.
   *
   * @param data the connection that asks for descriptors
   */
  void bindTo(ServerConnection data) {
    data.descriptors = channel;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (!ctx.channel().isActive()) {
      // what is left in the decoder when a refused connection closes: counted once already
      ctx.close();
      return;
    }
    if (cause instanceof FrameCodec.AuthenticationException
        || cause.getCause() instanceof FrameCodec.AuthenticationException) {
      node.metrics().authFailures.increment();
    } else if (cause instanceof DecoderException) {
      node.metrics().protocolErrors.increment();
    }
    LOG.debug("dtap cnode: closing a connection after {}", cause.toString());
    ctx.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    node.closed(this);
    Channel d = descriptors;
    if (d != null) {
      d.close();
    }
    synchronized (this) {
      closed = true;
      for (Map.Entry<PageKey, Integer> e : pins.entrySet()) {
        for (int i = 0; i < e.getValue(); i++) {
          node.disk().unpin(e.getKey());
        }
      }
      pins.clear();
    }
  }

  long sessionId() {
    return sessionId;
  }

  /** Writes a frame; any thread. */
  void send(Frame f) {
    channel.writeAndFlush(f);
  }

  void send(byte type, long requestId) {
    send(Frame.of(type, requestId));
  }

  /** Answers with a flag byte (room on the service's disk). */
  void sendFlagged(byte type, long requestId) {
    send(new Frame(type, requestId, Unpooled.buffer(1).writeByte(node.hasRoom() ? Wire.ROOM : 0)));
  }

  void sendLease(long requestId, long lease, PageKey key) {
    ByteBuf b = Unpooled.buffer(25);
    b.writeLong(lease);
    b.writeByte(node.hasRoom() ? Wire.ROOM : 0);
    b.writeLong(key.hi()).writeLong(key.lo());
    send(new Frame(Wire.LEASE, requestId, b));
  }

  /**
   * Hands a cached page over: its descriptor on the descriptor line when asked and possible (the
   * page stays pinned until the client releases it), else its bytes. The hit is counted here,
   * before the answer leaves, so that a client that has its page is always counted by then.
   *
   * @return false when the page is not on disk (evicted, never there); true when it is answered, as
   *     a hit or, when this connection already has {@link #BYTE_HITS_IN_FLIGHT} pages going out as
   *     bytes or the service's read queue is full, as a miss (counted in {@code cnode_hits_shed})
   */
  boolean deliver(long requestId, PageKey key, boolean wantDescriptor) {
    Path path = node.disk().pathOf(key);
    Channel d = descriptors;
    if (wantDescriptor && d != null) {
      return deliverDescriptor(requestId, key, path, d);
    }
    if (!node.disk().onDisk(key)) {
      return false;
    }
    // the page is read off the event loop; one that cannot be read now is answered as a miss
    if (byteHitsInFlight.incrementAndGet() > BYTE_HITS_IN_FLIGHT) {
      shed(requestId);
      return true;
    }
    try {
      node.hitReads().execute(() -> sendBytes(requestId, path));
    } catch (RejectedExecutionException e) {
      shed(requestId);
    }
    return true;
  }

  private void shed(long requestId) {
    byteHitsInFlight.decrementAndGet();
    node.metrics().hitsShed.increment();
    sendFlagged(Wire.MISS, requestId);
  }

  private void sendBytes(long requestId, Path path) {
    byte[] file;
    try {
      file = Files.readAllBytes(path);
    } catch (IOException e) {
      // evicted since the look (NoSuchFileException), or the disk failed: the client reads on
      LOG.debug("dtap cnode: cannot read a page: {}", e.toString());
      byteHitsInFlight.decrementAndGet();
      sendFlagged(Wire.MISS, requestId);
      return;
    }
    node.metrics().hits.increment();
    node.metrics().bytesServed.add(file.length);
    channel
        .writeAndFlush(new Frame(Wire.PAGE, requestId, Unpooled.wrappedBuffer(file)))
        .addListener(w -> byteHitsInFlight.decrementAndGet());
  }

  /**
   * Backpressure: while the client reads its answers more slowly than they are written (Netty's
   * outbound buffer above its high water mark), its next requests are not read.
   */
  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    boolean writable = ctx.channel().isWritable();
    if (!writable && ctx.channel().config().isAutoRead()) {
      node.metrics().readsPaused.increment();
    }
    ctx.channel().config().setAutoRead(writable);
    ctx.fireChannelWritabilityChanged();
  }

  private boolean deliverDescriptor(long requestId, PageKey key, Path path, Channel d) {
    node.disk().pin(key);
    FileInputStream file;
    long size;
    try {
      file = new FileInputStream(path.toFile());
      size = file.getChannel().size();
    } catch (IOException e) {
      node.disk().unpin(key);
      return false;
    }
    FileDescriptor fd;
    try {
      fd = new FileDescriptor(RawDescriptors.number(file.getFD()));
    } catch (IOException e) {
      closeQuietly(file);
      node.disk().unpin(key);
      return false;
    }
    synchronized (this) {
      if (closed) {
        // the client went away while the page was being handed over: nobody will release it
        closeQuietly(file);
        node.disk().unpin(key);
        return false;
      }
      pins.merge(key, 1, Integer::sum);
    }
    node.metrics().hits.increment();
    node.metrics().shortCircuitGrants.increment();
    node.metrics().bytesServed.add(size);
    // numbered and written on the descriptor line's own event loop, so that descriptors leave in
    // the order of their numbers whichever thread hands a page over (a write from that loop
    // itself would otherwise overtake writes other threads queued before it)
    d.eventLoop()
        .execute(
            () -> {
              int sequence = descriptorSequence++;
              // the descriptor first: the client matches it to the answer by its number; the
              // stream owns the descriptor and closes it once it is sent (the client has a copy)
              d.writeAndFlush(fd)
                  .addListener(
                      w -> {
                        closeQuietly(file);
                        if (!w.isSuccess()) {
                          channel.close(); // the client would wait for a descriptor in vain
                        }
                      });
              ByteBuf b = Unpooled.buffer(28);
              b.writeInt(sequence);
              b.writeLong(size);
              b.writeLong(key.hi()).writeLong(key.lo());
              send(new Frame(Wire.HIT_FD, requestId, b));
            });
    return true;
  }

  private static void closeQuietly(FileInputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      // a read-only file
    }
  }

  /** The client closed a descriptor it held. */
  synchronized void release(PageKey key) {
    Integer n = pins.get(key);
    if (n == null) {
      return;
    }
    if (n == 1) {
      pins.remove(key);
    } else {
      pins.put(key, n - 1);
    }
    node.disk().unpin(key);
  }

  /** A request this connection sent that makes no sense: the connection is closed. */
  static final class ProtocolException extends Exception {
    private static final long serialVersionUID = 1L;

    ProtocolException(String message) {
      super(message);
    }
  }
}
