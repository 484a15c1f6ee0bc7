package dev.dtap.cache.cnode;

import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollMode;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The authenticated connections of one client: the data connection that carries requests and
 * answers, and, where descriptors can pass, the line that carries the page files of short-circuit
 * hits.
 *
 * <p>Immutable once opened.
 */
final class ClientLines {
  final ClientConnection data;

  /** The descriptor line, or null where the service or this JVM cannot pass descriptors. */
  final ClientConnection line;

  private ClientLines(ClientConnection data, ClientConnection line) {
    this.data = data;
    this.line = line;
  }

  /**
   * Connects over the service's Unix domain socket, with a descriptor line, when native epoll is
   * here; else over TCP to this host's port.
   *
   * @param settings the client settings
   * @param group the event loops the connections run on; the caller shuts them down on failure
   * @return the open connections
   * @throws IOException if the service cannot be reached or authenticated within the connect
   *     deadline, or refuses a descriptor line
   */
  static ClientLines open(CnodeSettings settings, EventLoopGroup group) throws IOException {
    Duration timeout = settings.connectTimeout();
    if (!ClientTransport.domainSockets()) {
      ClientConnection c =
          Deadlines.await(
              ClientConnection.open(
                  ClientTransport.tcp(group, timeout),
                  new InetSocketAddress("127.0.0.1", settings.port()),
                  settings.secret()),
              timeout);
      return new ClientLines(c, null);
    }
    DomainSocketAddress address = new DomainSocketAddress(settings.socket().toFile());
    ClientConnection c =
        Deadlines.await(
            ClientConnection.open(
                ClientTransport.domain(group, timeout), address, settings.secret()),
            timeout);
    if (!settings.shortCircuit() || !c.offersDescriptors()) {
      return new ClientLines(c, null);
    }
    // level-triggered: Netty reads one descriptor per readiness event, and edge-triggered epoll
    // would leave the others queued until a later one arrived (found under load: answers waited
    // for their descriptors in vain)
    ClientConnection line =
        Deadlines.await(
            ClientConnection.open(
                ClientTransport.domain(group, timeout)
                    .option(EpollChannelOption.EPOLL_MODE, EpollMode.LEVEL_TRIGGERED),
                address,
                settings.secret()),
            timeout);
    Frame bound =
        Deadlines.await(
            line.call(Wire.BIND, Unpooled.buffer(8).writeLong(c.sessionId())).answer, timeout);
    bound.release();
    if (bound.type != Wire.BOUND) {
      throw new IOException("the cache service refused a descriptor line");
    }
    line.becomeDescriptorLine(c);
    return new ClientLines(c, line);
  }
}
