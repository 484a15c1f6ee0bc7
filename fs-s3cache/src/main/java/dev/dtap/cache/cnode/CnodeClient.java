package dev.dtap.cache.cnode;

import dev.dtap.cache.concurrent.InFlight;
import dev.dtap.cache.disk.PageFile;
import dev.dtap.cache.disk.PageKey;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A task JVM's connection to its host's cache service: lookups with short deadlines, fills handed
 * over in the background, and the descriptors of short-circuit hits turned into readable page
 * files. Every failure is an {@link IOException} (late answers included), which the caller treats
 * as "read without the service".
 *
 * <p>Thread-safe.
 */
public final class CnodeClient implements Closeable {
  private final CnodeSettings settings;
  private final EventLoopGroup group;
  private final ClientConnection data;
  private final ClientConnection line;
  private final InFlight inFlight = new InFlight();
  private final AtomicInteger waitsPastDeadline = new AtomicInteger();
  private final DescriptorHits hits;

  private CnodeClient(
      CnodeSettings settings, EventLoopGroup group, ClientConnection data, ClientConnection line) {
    this.settings = settings;
    this.group = group;
    this.data = data;
    this.line = line;
    this.hits = new DescriptorHits(this, data, settings.requestTimeout());
    data.onOrphans(this::orphan);
  }

  /**
   * Connects to the host's service: over its Unix domain socket with a descriptor line when native
   * epoll is here, else over TCP to this host's port.
   *
   * @param settings the client settings
   * @return the connected client
   * @throws IOException if the service cannot be reached or authenticated within the connect
   *     deadline
   */
  public static CnodeClient connect(CnodeSettings settings) throws IOException {
    // what a new JVM loads once (Netty's native transport, the crypto) is not the service's delay
    EventLoopGroup group = ClientTransport.newGroup("dtap-cnode-client");
    SessionMac.warmUp();
    try {
      ClientLines lines = ClientLines.open(settings, group);
      return new CnodeClient(settings, group, lines.data, lines.line);
    } catch (IOException | RuntimeException e) {
      group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
      throw e;
    }
  }

  /**
   * @return the host name the service announced
   */
  public String serviceHost() {
    return data.serviceHost();
  }

  /**
   * @return whether the service's disk had room when it last said (admission caches a first read
   *     only then)
   */
  public boolean room() {
    return data.room();
  }

  /**
   * @return whether the service remembers which pages the host's lone readers met ({@link #seen})
   */
  public boolean keepsSightings() {
    return data.keepsSightings();
  }

  /**
   * @return whether the connection is up
   */
  public boolean isOpen() {
    return data.isOpen() && (line == null || line.isOpen());
  }

  /**
   * Asks for a page.
   *
   * @param key the page
   * @param mayFill whether this client would read and hand over a missing page
   * @param owner the host owning the page's block when another host, else null
   * @return a hit (an open page file or the page's bytes), a lease to fill, or a miss
   * @throws IOException if the service fails or does not answer within the request deadline (or the
   *     fill-wait bound, once it said it waits for another fill)
   */
  public PageLookup lookup(PageKey key, boolean mayFill, String owner) throws IOException {
    byte[] o = owner == null ? new byte[0] : owner.getBytes(StandardCharsets.UTF_8);
    ByteBuf body = Unpooled.buffer(16 + 1 + 2 + o.length);
    body.writeLong(key.hi()).writeLong(key.lo());
    body.writeByte((line != null ? Wire.WANT_DESCRIPTOR : 0) | (mayFill ? Wire.MAY_FILL : 0));
    body.writeShort(o.length).writeBytes(o);
    Frame f = answer(data.call(Wire.LOOKUP, body));
    try {
      switch (f.type) {
        case Wire.HIT_FD:
          return hits.open(key, f.body.readInt(), f.body.readLong());
        case Wire.PAGE:
          {
            byte[] file = new byte[f.body.readableBytes()];
            f.body.readBytes(file);
            try {
              return PageLookup.bytes(PageFile.decode(file, key));
            } catch (PageFile.CorruptPageException e) {
              corrupt(key);
              return PageLookup.miss();
            }
          }
        case Wire.LEASE:
          {
            long lease = f.body.readLong();
            data.room((f.body.readUnsignedByte() & Wire.ROOM) != 0);
            return PageLookup.lease(lease);
          }
        case Wire.MISS:
          data.room(f.body.isReadable() && (f.body.readUnsignedByte() & Wire.ROOM) != 0);
          return PageLookup.miss();
        default:
          throw new IOException("the cache service answered a lookup with type " + f.type);
      }
    } finally {
      f.release();
    }
  }

  /**
   * @return the connection answers arrive on (tests make a client read slowly through it)
   */
  Channel dataChannel() {
    return data.channel();
  }

  /** Lookups that outlasted the request deadline because the service announced another's fill. */
  int waitsPastDeadline() {
    return waitsPastDeadline.get();
  }

  private Frame answer(ClientConnection.Call call) throws IOException {
    IOException failure;
    try {
      try {
        return Deadlines.waitFor(call.answer, settings.requestTimeout());
      } catch (Deadlines.CnodeTimeoutException e) {
        if (!call.waiting) {
          throw e;
        }
        // the service waits for another JVM's fill of this page: so do we, within the fill bound
        waitsPastDeadline.incrementAndGet();
        return Deadlines.waitFor(call.answer, settings.fillWait());
      }
    } catch (IOException e) {
      failure = e;
    }
    data.abandon(call);
    if (call.answer.isCompletedExceptionally() || call.answer.completeExceptionally(failure)) {
      throw failure;
    }
    // the answer came as we gave up: take it, rather than leave what it grants held
    return call.answer.join();
  }

  /** An answer that came after its caller gave up: what it granted is given back. */
  private void orphan(ClientConnection c, Frame f) {
    ByteBuf b = f.body;
    if (f.type == Wire.HIT_FD && b.readableBytes() >= 28) {
      int sequence = b.readInt();
      b.readLong();
      PageKey key = new PageKey(b.readLong(), b.readLong());
      data.descriptor(sequence)
          .thenAccept(
              fd -> {
                ClientConnection.closeQuietly(fd);
                release(key);
              });
    } else if (f.type == Wire.LEASE && b.readableBytes() >= 25) {
      long lease = b.readLong();
      b.readByte();
      abortFill(lease, new PageKey(b.readLong(), b.readLong()));
    }
  }

  /**
   * Hands over a page this client read under a lease, in the background.
   *
   * @param lease the lease
   * @param key the page
   * @param page the page's bytes; not modified afterwards
   */
  public void fill(long lease, PageKey key, byte[] page) {
    ByteBuf body =
        Unpooled.wrappedBuffer(
            Unpooled.buffer(24).writeLong(lease).writeLong(key.hi()).writeLong(key.lo()),
            Unpooled.wrappedBuffer(page));
    track(Wire.FILL, body);
  }

  /**
   * Offers a page read without a lease (a span of pages), in the background.
   *
   * @param key the page
   * @param page its bytes; not modified afterwards
   */
  public void offer(PageKey key, byte[] page) {
    ByteBuf body =
        Unpooled.wrappedBuffer(
            Unpooled.buffer(16).writeLong(key.hi()).writeLong(key.lo()),
            Unpooled.wrappedBuffer(page));
    track(Wire.OFFER, body);
  }

  /** Sends a page; counted before it goes, so that a flush never misses it. */
  private void track(byte type, ByteBuf body) {
    inFlight.enter();
    ClientConnection.Call call;
    try {
      call = data.call(type, body);
    } catch (RuntimeException e) {
      inFlight.exit();
      throw e;
    }
    call.answer.whenComplete(
        (f, e) -> {
          try {
            if (f != null) {
              f.release();
            }
          } finally {
            inFlight.exit();
          }
        });
  }

  /**
   * Gives up a lease: the page could not be read.
   *
   * @param lease the lease
   * @param key the page
   */
  public void abortFill(long lease, PageKey key) {
    data.tell(
        Wire.ABORT_FILL,
        Unpooled.buffer(24).writeLong(lease).writeLong(key.hi()).writeLong(key.lo()));
  }

  /**
   * Says a descriptor of this page is closed, so the service may evict it.
   *
   * @param key the page
   */
  public void release(PageKey key) {
    if (data.isOpen()) {
      data.tell(Wire.RELEASE, keyBody(key));
    }
  }

  /**
   * Reports a page that failed verification; the service deletes it.
   *
   * @param key the page
   */
  public void corrupt(PageKey key) {
    data.tell(Wire.CORRUPT, keyBody(key));
  }

  private static ByteBuf keyBody(PageKey key) {
    return Unpooled.buffer(16).writeLong(key.hi()).writeLong(key.lo());
  }

  /**
   * Whether a lone reader of the host met a page before (admission caches it when met again).
   *
   * @param key the page
   * @param record whether this is a meeting, to be remembered, or only a question
   * @return true if the page was met before this call
   * @throws IOException if the service cannot be asked
   */
  public boolean seen(PageKey key, boolean record) throws IOException {
    Frame f = answer(data.call(Wire.SEEN, keyBody(key).writeByte(record ? Wire.RECORD : 0)));
    try {
      return f.type == Wire.OK && f.body.isReadable() && f.body.readUnsignedByte() == 1;
    } finally {
      f.release();
    }
  }

  /**
   * @return the bytes the page takes on the service's disk, or -1
   * @throws IOException if the service cannot be asked
   */
  public long sizeOf(PageKey key) throws IOException {
    Frame f = answer(data.call(Wire.CONTAINS, keyBody(key)));
    try {
      return f.type == Wire.SIZE ? f.body.readLong() : -1;
    } finally {
      f.release();
    }
  }

  /**
   * Drops a page from the service.
   *
   * @throws IOException if the service cannot be asked
   */
  public void forget(PageKey key) throws IOException {
    answer(data.call(Wire.FORGET, keyBody(key))).release();
  }

  /**
   * Drops every page of the service (tests and benchmarks: a cold cache).
   *
   * @throws IOException if the service cannot be asked
   */
  public void clear() throws IOException {
    ClientConnection.Call call = data.call(Wire.CLEAR, Unpooled.EMPTY_BUFFER);
    Deadlines.await(call.answer, Duration.ofMinutes(5)).release();
  }

  /**
   * @return the service's counters, gauges and directories as {@code name=value} lines
   * @throws IOException if the service cannot be asked
   */
  public String stats() throws IOException {
    Frame f =
        Deadlines.await(
            data.call(Wire.STATS, Unpooled.EMPTY_BUFFER).answer, Duration.ofSeconds(30));
    try {
      return f.body.toString(StandardCharsets.UTF_8);
    } finally {
      f.release();
    }
  }

  /**
   * Waits until the fills and offers sent so far are answered.
   *
   * @throws InterruptedException if interrupted
   */
  public void flush() throws InterruptedException {
    flush(Long.MAX_VALUE);
  }

  /**
   * Waits until the fills and offers sent so far are answered, the connection ends, or the bound
   * passes.
   *
   * @param timeoutNanos the bound
   * @return whether every one was answered (false when the connection ended: a broken connection
   *     fails what it carried)
   * @throws InterruptedException if interrupted
   */
  public boolean flush(long timeoutNanos) throws InterruptedException {
    // a connection that ends fails every call it carried, so the count reaches zero either way
    return inFlight.awaitIdle(timeoutNanos, TimeUnit.NANOSECONDS) && data.isOpen();
  }

  @Override
  public void close() {
    data.close();
    if (line != null) {
      line.close();
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }
}
