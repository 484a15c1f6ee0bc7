package dev.dtap.cache.cnode;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.concurrent.ThreadFactory;

/**
 * How clients reach services: bootstraps for the Unix domain socket (epoll only) and for TCP, on an
 * event loop group of their own or a service's. Thread-safe.
 */
final class ClientTransport {
  private ClientTransport() {}

  /**
   * @return whether Unix domain sockets (and descriptor passing) are available here
   */
  static boolean domainSockets() {
    return Epoll.isAvailable();
  }

  /** A small group of daemon threads for one client. */
  static EventLoopGroup newGroup(String name) {
    ThreadFactory daemon = new DefaultThreadFactory(name, true);
    return Epoll.isAvailable()
        ? new EpollEventLoopGroup(1, daemon)
        : new NioEventLoopGroup(1, daemon);
  }

  static Bootstrap domain(EventLoopGroup group, Duration connectTimeout) {
    return new Bootstrap()
        .group(group)
        .channel(EpollDomainSocketChannel.class)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, millis(connectTimeout));
  }

  static Bootstrap tcp(EventLoopGroup group, Duration connectTimeout) {
    return new Bootstrap()
        .group(group)
        .channel(
            group instanceof EpollEventLoopGroup
                ? EpollSocketChannel.class
                : NioSocketChannel.class)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, millis(connectTimeout))
        .option(ChannelOption.TCP_NODELAY, true);
  }

  private static int millis(Duration d) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, d.toMillis()));
  }
}
