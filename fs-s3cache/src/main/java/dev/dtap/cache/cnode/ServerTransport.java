package dev.dtap.cache.cnode;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
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

  private final CacheNode node;
  private final boolean epoll;
  private final EventLoopGroup group;
  private Channel domain;
  private Channel tcp;

  ServerTransport(CacheNode node) {
    this.node = node;
    this.epoll = Epoll.isAvailable();
    if (!epoll) {
      LOG.warn(
          "dtap cnode: native epoll is not available ({}); serving TCP only, without descriptor"
              + " passing",
          Epoll.unavailabilityCause() == null ? "unknown" : Epoll.unavailabilityCause().toString());
    }
    this.group = epoll ? new EpollEventLoopGroup(2, daemon()) : new NioEventLoopGroup(2, daemon());
  }

  private static java.util.concurrent.ThreadFactory daemon() {
    return r -> {
      Thread t = new Thread(r, "dtap-cnode-io");
      t.setDaemon(true);
      return t;
    };
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
      Files.createDirectories(socket.getParent());
      if (Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
        if (listening(socket)) {
          throw new IOException(
              "Another cache service listens on "
                  + socket
                  + " ("
                  + CnodeKeys.SOCKET.name()
                  + "): one per host");
        }
        // left by a service that died: nothing listens on it any more
        Files.delete(socket);
      }
      domain = bind(EpollServerDomainSocketChannel.class, new DomainSocketAddress(socket.toFile()));
      secureSocketFile(socket, s.socketGroup());
    }
    tcp =
        bind(
            epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class,
            new InetSocketAddress(s.bindHost(), s.port()));
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
                });
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
      Files.getFileAttributeView(socket, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
          .setGroup(g);
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
    if (domain != null) {
      try {
        Files.deleteIfExists(node.settings().socket());
      } catch (IOException e) {
        // the next start removes it
      }
    }
  }
}
