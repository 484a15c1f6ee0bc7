package dev.dtap.cache.cnode;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.unix.DomainSocketReadMode;
import io.netty.channel.unix.FileDescriptor;
import io.netty.util.AttributeKey;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * A client's side of one connection to a cache service (a task JVM's, or a service's to a peer):
 * the handshake, then pipelined requests matched to their answers by id. A second connection may be
 * bound to it as its descriptor line: it then receives only the descriptors of short-circuit hits,
 * in order, which this connection hands to the answers that announce them.
 *
 * <p>Thread-safe.
 */
final class ClientConnection extends ChannelInboundHandlerAdapter {
  private static final SecureRandom RANDOM = new SecureRandom();

  /** One request in flight. */
  static final class Call {
    final CompletableFuture<Frame> answer = new CompletableFuture<>();
    volatile boolean waiting;
  }

  private final byte[] secret;
  private final CompletableFuture<ClientConnection> ready = new CompletableFuture<>();
  private final Map<Long, Call> calls = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong(1);
  private final Map<Integer, CompletableFuture<FileDescriptor>> descriptors =
      new ConcurrentHashMap<>();
  private final byte[] clientNonce = new byte[Wire.NONCE_LENGTH];
  private volatile Channel channel;
  private volatile boolean offersDescriptors;
  private volatile boolean room;
  private volatile boolean keepsSightings;
  private volatile String serviceHost;
  private long sessionId;

  /** Answers that arrive for a request nobody waits for any more (it timed out). */
  private volatile BiConsumer<ClientConnection, Frame> orphans = (c, f) -> {};

  /** Where this connection's descriptors go when it is a descriptor line. */
  private volatile ClientConnection descriptorSink;

  private int descriptorsReceived;

  private ClientConnection(byte[] secret) {
    this.secret = secret;
  }

  /**
   * Connects and authenticates.
   *
   * @param bootstrap a bootstrap with group and channel type set
   * @param address the service
   * @param secret the cluster secret
   * @return the connection once the service proved it knows the secret too
   */
  static CompletableFuture<ClientConnection> open(
      Bootstrap bootstrap, SocketAddress address, byte[] secret) {
    ClientConnection c = new ClientConnection(secret);
    ChannelFuture f =
        bootstrap
            .clone()
            .handler(
                new io.netty.channel.ChannelInitializer<Channel>() {
                  @Override
                  protected void initChannel(Channel ch) {
                    FrameCodec.install(ch);
                    ch.pipeline().addLast("client", c);
                  }
                })
            .connect(address);
    f.addListener(
        done -> {
          if (!done.isSuccess()) {
            c.ready.completeExceptionally(
                new IOException("cannot connect to the cache service", done.cause()));
          }
        });
    // a caller that stops waiting (its deadline passed) leaves no connection behind
    c.ready.whenComplete(
        (ok, e) -> {
          if (e != null) {
            f.channel().close();
          }
        });
    return c.ready;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    channel = ctx.channel();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof FileDescriptor) {
      ClientConnection sink = descriptorSink;
      if (sink == null) {
        closeQuietly((FileDescriptor) msg);
        ctx.close();
      } else {
        sink.descriptorArrived((FileDescriptor) msg);
      }
      return;
    }
    Frame f = (Frame) msg;
    if (!ready.isDone()) {
      handshake(ctx, f);
      f.release();
      return;
    }
    if (f.type == Wire.WAITING) {
      Call c = calls.get(f.requestId);
      if (c != null) {
        c.waiting = true;
      }
      f.release();
      return;
    }
    Call c = calls.remove(f.requestId);
    if (c == null) {
      orphans.accept(this, f);
      f.release();
    } else if (!c.answer.complete(f)) {
      // its caller gave up as it came: what it grants is given back
      orphans.accept(this, f);
      f.release();
    }
  }

  private void handshake(ChannelHandlerContext ctx, Frame f) {
    ByteBuf b = f.body;
    if (f.type == Wire.HELLO && b.readableBytes() >= 2 + Wire.NONCE_LENGTH) {
      int version = b.readUnsignedByte();
      byte[] serverNonce = new byte[Wire.NONCE_LENGTH];
      b.readBytes(serverNonce);
      offersDescriptors = b.readUnsignedByte() == 1;
      if (version != Wire.VERSION) {
        fail(ctx, "the cache service speaks protocol version " + version + ", not " + Wire.VERSION);
        return;
      }
      RANDOM.nextBytes(clientNonce);
      ByteBuf auth = Unpooled.buffer();
      auth.writeByte(Wire.VERSION);
      auth.writeBytes(clientNonce);
      auth.writeBytes(SessionMac.proof(secret, "auth", serverNonce, clientNonce));
      ctx.writeAndFlush(new Frame(Wire.AUTH, 0, auth));
      // remembered for the service's proof
      ctx.channel().attr(NONCE).set(serverNonce);
    } else if (f.type == Wire.AUTH_OK && b.readableBytes() >= 32 + 8 + 1 + 2) {
      byte[] serverNonce = ctx.channel().attr(NONCE).get();
      byte[] proof = new byte[32];
      b.readBytes(proof);
      if (serverNonce == null
          || !SessionMac.equal(
              proof, SessionMac.proof(secret, "server", clientNonce, serverNonce))) {
        fail(ctx, "the cache service could not prove it knows the cluster secret");
        return;
      }
      sessionId = b.readLong();
      int flags = b.readUnsignedByte();
      room = (flags & Wire.ROOM) != 0;
      keepsSightings = (flags & Wire.KEEPS_SIGHTINGS) != 0;
      int n = b.readUnsignedShort();
      serviceHost =
          b.readCharSequence(Math.min(n, b.readableBytes()), StandardCharsets.UTF_8).toString();
      ctx.channel()
          .attr(FrameCodec.SESSION)
          .set(SessionMac.session(secret, serverNonce, clientNonce, false));
      ready.complete(this);
    } else {
      // a refused AUTH ends with the service closing the connection
      fail(ctx, "the cache service refused the handshake (is fs.dtap.cnode.secret the same?)");
    }
  }

  private static final AttributeKey<byte[]> NONCE = AttributeKey.valueOf("dtap.cnode.serverNonce");

  private void fail(ChannelHandlerContext ctx, String why) {
    ready.completeExceptionally(new IOException(why));
    ctx.close();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ready.completeExceptionally(new IOException("the cache service connection failed", cause));
    ctx.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    IOException closed = new IOException("the cache service closed the connection");
    ready.completeExceptionally(closed);
    for (Call c : calls.values()) {
      c.answer.completeExceptionally(closed);
    }
    calls.clear();
    for (CompletableFuture<FileDescriptor> d : descriptors.values()) {
      d.completeExceptionally(closed);
    }
  }

  /**
   * Sends a request.
   *
   * @param type the request type
   * @param body its body, released once written
   * @return the call, whose answer completes with the service's frame (released by the caller), or
   *     exceptionally when the connection ends
   */
  Call call(byte type, ByteBuf body) {
    long id = nextId.getAndIncrement();
    Call c = new Call();
    calls.put(id, c);
    c.answer.whenComplete((f, e) -> calls.remove(id, c));
    channel.writeAndFlush(new Frame(type, id, body));
    if (!channel.isActive()) {
      c.answer.completeExceptionally(new IOException("the cache service connection is closed"));
    }
    return c;
  }

  /**
   * Gives up on a call whose caller stopped waiting; a late answer goes to the orphan handler.
   *
   * @param c the call
   */
  void abandon(Call c) {
    calls.values().remove(c);
  }

  /** Sends a request that has no answer. */
  void tell(byte type, ByteBuf body) {
    channel.writeAndFlush(new Frame(type, nextId.getAndIncrement(), body));
  }

  void onOrphans(BiConsumer<ClientConnection, Frame> handler) {
    this.orphans = handler;
  }

  boolean isOpen() {
    Channel ch = channel;
    return ch != null && ch.isActive();
  }

  boolean offersDescriptors() {
    return offersDescriptors;
  }

  boolean room() {
    return room;
  }

  void room(boolean value) {
    room = value;
  }

  boolean keepsSightings() {
    return keepsSightings;
  }

  String serviceHost() {
    return serviceHost;
  }

  long sessionId() {
    return sessionId;
  }

  Channel channel() {
    return channel;
  }

  /**
   * Turns this connection into another's descriptor line: from now on it reads descriptors only.
   * Call once the service answered {@code BIND}.
   *
   * @param sink the connection whose answers announce the descriptors
   */
  void becomeDescriptorLine(ClientConnection sink) throws IOException {
    descriptorSink = sink;
    // before any lookup can make the service send a descriptor (the line was opened
    // level-triggered: see CnodeClient)
    channel
        .eventLoop()
        .submit(
            () ->
                channel
                    .config()
                    .setOption(
                        EpollChannelOption.DOMAIN_SOCKET_READ_MODE,
                        DomainSocketReadMode.FILE_DESCRIPTORS))
        .syncUninterruptibly();
  }

  private void descriptorArrived(FileDescriptor fd) {
    int sequence;
    synchronized (descriptors) {
      sequence = descriptorsReceived++;
    }
    if (!descriptors.computeIfAbsent(sequence, k -> new CompletableFuture<>()).complete(fd)) {
      closeQuietly(fd);
    }
  }

  /**
   * The descriptor an answer announced, by its sequence number; removed once taken.
   *
   * @param sequence the number in the {@code HIT_FD} answer
   * @return its future
   */
  CompletableFuture<FileDescriptor> descriptor(int sequence) {
    CompletableFuture<FileDescriptor> f =
        descriptors.computeIfAbsent(sequence, k -> new CompletableFuture<>());
    f.whenComplete((fd, e) -> descriptors.remove(sequence, f));
    return f;
  }

  static void closeQuietly(FileDescriptor fd) {
    try {
      fd.close();
    } catch (IOException e) {
      // nothing was written through it
    }
  }

  void close() {
    Channel ch = channel;
    if (ch != null) {
      ch.close();
    }
  }
}
