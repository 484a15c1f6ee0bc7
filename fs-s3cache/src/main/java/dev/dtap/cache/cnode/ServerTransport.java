package dev.dtap.cache.cnode;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's listening sockets: the Unix domain socket for the host's clients (epoll, so that
 * descriptors can be passed) and TCP for peers, and for clients where native epoll is missing. The
 * socket file is created 0660 with the configured group.
 *
 * <p>Thread-safe.
 */
final class ServerTransport {
  private static final Logger LOG = LoggerFactory.getLogger(ServerTransport.class);

  /** A connection's answers waiting for its socket above which its requests are not read. */
  static final int OUTBOUND_HIGH_BYTES = 4 << 20;

  /** ... and below which they are read again. */
  static final int OUTBOUND_LOW_BYTES = 1 << 20;

  private final CacheNode node;
  private final boolean epoll;
  private final EventLoopGroup group;
  private Channel domain;
  private Channel tcp;

  /** Linux's limit on a socket's path (108 bytes with the terminating zero). */
  private static final int MAX_SOCKET_PATH = 107;

  /** Held while the service runs: one service per socket path. */
  private SocketLock lock;

  /** The file key of the socket this service bound, so that it deletes no other at close. */
  private Object boundSocket;

  ServerTransport(CacheNode node) {
    this.node = node;
    this.epoll = Epoll.isAvailable();
    if (!epoll) {
      LOG.warn(
          "dtap cnode: native epoll is not available ({}); serving TCP only, without descriptor"
              + " passing",
          Epoll.unavailabilityCause() == null ? "unknown" : Epoll.unavailabilityCause().toString());
    }
    DefaultThreadFactory daemon = new DefaultThreadFactory("dtap-cnode-io", true);
    this.group = epoll ? new EpollEventLoopGroup(2, daemon) : new NioEventLoopGroup(2, daemon);
  }

  EventLoopGroup group() {
    return group;
  }

  boolean domainSocket() {
    return domain != null;
  }

  int tcpPort() {
    return tcp == null ? -1 : ((InetSocketAddress) tcp.localAddress()).getPort();
  }

  void start() throws IOException {
    CnodeSettings s = node.settings();
    if (epoll) {
      Path socket = s.socket();
      try {
        Files.createDirectories(socket.getParent());
      } catch (IOException e) {
        throw new IOException(
            "Cannot create the directory of " + CnodeKeys.SOCKET.name() + " " + socket + ": " + e,
            e);
      }
      lock = SocketLock.acquire(socket);
      clearStaleSocket(socket);
      // bound where only this user can reach it, and moved into place once its mode and group
      // are set: no connection is accepted with the umask's permissions
      Path staging = socket.resolveSibling("." + socket.getFileName() + ".new");
      int length = staging.resolve("s").toString().getBytes(StandardCharsets.UTF_8).length;
      if (length > MAX_SOCKET_PATH) {
        throw new IOException(
            CnodeKeys.SOCKET.name()
                + " "
                + socket
                + " is too long for a Unix domain socket: at most "
                + (MAX_SOCKET_PATH - length + socket.toString().length())
                + " characters here");
      }
      deleteStaging(staging);
      Files.createDirectory(
          staging,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      try {
        Path staged = staging.resolve("s");
        domain =
            bind(EpollServerDomainSocketChannel.class, new DomainSocketAddress(staged.toFile()));
        secureSocketFile(staged, s.socketGroup());
        Files.move(staged, socket, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        deleteStaging(staging);
      }
      boundSocket =
          Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
              .fileKey();
    }
    tcp =
        bind(
            epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class,
            new InetSocketAddress(s.bindHost(), s.port()));
  }

  /** Removes a socket left by a service that died; anything else at the path is refused. */
  private void clearStaleSocket(Path socket) throws IOException {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return;
    }
    if (!a.isOther()) {
      throw new IOException(
          CnodeKeys.SOCKET.name()
              + " "
              + socket
              + " exists and is not a socket: remove it or choose another path");
    }
    if (listening(socket)) {
      throw new IOException(
          "Another cache service listens on "
              + socket
              + " ("
              + CnodeKeys.SOCKET.name()
              + "): one per host");
    }
    Files.delete(socket);
  }

  private static void deleteStaging(Path staging) throws IOException {
    Files.deleteIfExists(staging.resolve("s"));
    Files.deleteIfExists(staging);
  }

  private boolean listening(Path socket) {
    try {
      Channel probe =
          ClientTransport.domain(group, java.time.Duration.ofSeconds(2))
              .handler(new io.netty.channel.ChannelInboundHandlerAdapter())
              .connect(new DomainSocketAddress(socket.toFile()))
              .sync()
              .channel();
      probe.close();
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  private Channel bind(Class<? extends io.netty.channel.ServerChannel> type, Object address)
      throws IOException {
    boolean isDomain = address instanceof DomainSocketAddress;
    ServerBootstrap b =
        new ServerBootstrap()
            .group(group)
            .channel(type)
            .childHandler(
                new ChannelInitializer<Channel>() {
                  @Override
                  protected void initChannel(Channel ch) {
                    FrameCodec.install(ch);
                    ch.pipeline().addLast("connection", new ServerConnection(node, isDomain));
                  }
                })
            // reading pauses while more than this waits for a slow client (ServerConnection);
            // above a few pages, so a client that keeps up never pauses
            .childOption(
                ChannelOption.WRITE_BUFFER_WATER_MARK,
                new WriteBufferWaterMark(OUTBOUND_LOW_BYTES, OUTBOUND_HIGH_BYTES));
    if (!isDomain) {
      b.option(ChannelOption.SO_REUSEADDR, true).childOption(ChannelOption.TCP_NODELAY, true);
    }
    try {
      return b.bind((java.net.SocketAddress) address).sync().channel();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted binding " + address);
    } catch (Exception e) {
      throw new IOException(
          "The cache service cannot listen on "
              + address
              + " ("
              + (isDomain ? CnodeKeys.SOCKET.name() : CnodeKeys.PORT.name())
              + "): "
              + e.getMessage(),
          e);
    }
  }

  private static void secureSocketFile(Path socket, String group) throws IOException {
    Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw----"));
    if (!group.isEmpty()) {
      GroupPrincipal g;
      try {
        g =
            socket
                .getFileSystem()
                .getUserPrincipalLookupService()
                .lookupPrincipalByGroupName(group);
      } catch (IOException e) {
        throw new IOException(
            CnodeKeys.SOCKET_GROUP.name() + " names no group of this host: " + group, e);
      }
      try {
        Files.getFileAttributeView(socket, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
            .setGroup(g);
      } catch (IOException e) {
        throw new IOException(
            "Cannot give the cache service's socket the group "
                + group
                + " ("
                + CnodeKeys.SOCKET_GROUP.name()
                + "): the service's user must be a member of it: "
                + e,
            e);
      }
    }
  }

  void close() {
    if (domain != null) {
      domain.close().syncUninterruptibly();
    }
    if (tcp != null) {
      tcp.close().syncUninterruptibly();
    }
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    if (boundSocket != null) {
      // only the socket this service bound: another may have taken the path since
      Path socket = node.settings().socket();
      try {
        if (boundSocket.equals(
            Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                .fileKey())) {
          Files.delete(socket);
        }
      } catch (IOException e) {
        // gone already, or the next start removes it
      }
    }
    if (lock != null) {
      lock.close();
    }
  }
}
