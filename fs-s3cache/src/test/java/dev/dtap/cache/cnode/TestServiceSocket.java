package dev.dtap.cache.cnode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The service's socket file: one service per path, stale sockets, and what else lies there. */
class TestServiceSocket {
  private CnodeTestSupport support;
  private Path socket;
  private CacheNode node;

  @BeforeEach
  void setUp() throws IOException {
    assertThat(Epoll.isAvailable()).as("native epoll, which the service's socket needs").isTrue();
    support = new CnodeTestSupport("tss");
    socket = support.dir.resolve("cnode.sock");
  }

  @AfterEach
  void tearDown() {
    if (node != null) {
      node.close();
    }
  }

  @Test
  void aSecondServiceForTheSamePathFailsAndTheFirstKeepsItsSocket() throws Exception {
    node = support.start();
    Object first = fileKey();
    assertThatThrownBy(support::start)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("fs.dtap.cnode.socket")
        .hasMessageContaining("one per host");
    assertThat(fileKey()).as("the live service's socket is untouched").isEqualTo(first);
    try (CnodeClient c = support.client()) {
      assertThat(c.serviceHost()).isEqualTo("tss-host");
    }
  }

  @Test
  void theSocketIsOnlyEverReachableWithItsOwnMode() throws Exception {
    node = support.start();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)))
        .isEqualTo("rw-rw----");
    assertThat(Files.exists(socket.resolveSibling(".cnode.sock.new")))
        .as("the staging directory is gone")
        .isFalse();
  }

  @Test
  void aSocketLeftByADeadServiceIsReplaced() throws Exception {
    // a socket nobody listens on, as a killed service leaves it (Netty unlinks the path it bound
    // when it closes, so the socket is bound elsewhere and moved into place first)
    EventLoopGroup group = new EpollEventLoopGroup(1);
    try {
      Path elsewhere = support.dir.resolve("bound-elsewhere.sock");
      Channel dead =
          new ServerBootstrap()
              .group(group)
              .channel(EpollServerDomainSocketChannel.class)
              .childHandler(new ChannelInboundHandlerAdapter())
              .bind(new DomainSocketAddress(elsewhere.toFile()))
              .sync()
              .channel();
      Files.move(elsewhere, socket);
      dead.close().sync();
    } finally {
      group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).sync();
    }
    // nobody answers there; an inode number cannot tell old from new, the kernel reuses it
    assertThatThrownBy(support::client).isInstanceOf(IOException.class);
    node = support.start();
    try (CnodeClient c = support.client()) {
      assertThat(c.serviceHost()).isEqualTo("tss-host");
    }
    node.close();
    node = null;
    assertThat(Files.exists(socket, LinkOption.NOFOLLOW_LINKS))
        .as("its own socket is removed at close")
        .isFalse();
  }

  @Test
  void aFileThatIsNotASocketIsNeverDeleted() throws Exception {
    Files.write(socket, "an operator's file".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(support::start)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("fs.dtap.cnode.socket")
        .hasMessageContaining("is not a socket");
    assertThat(new String(Files.readAllBytes(socket), StandardCharsets.UTF_8))
        .isEqualTo("an operator's file");
    // and the failed start left nothing that stops a service elsewhere
    support.conf.set(CnodeKeys.SOCKET.name(), support.dir.resolve("other.sock").toString());
    node = support.start();
  }

  private Object fileKey() throws IOException {
    return Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
        .fileKey();
  }
}
