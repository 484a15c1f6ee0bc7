package dev.dtap.fs.testing;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A server that accepts connections, holds them open and never reads or writes a byte: a service
 * that is up but does not answer, such as a ResourceManager stuck in a long pause.
 *
 * <p>Thread-safe.
 */
public final class SilentServer implements Closeable {
  private final ServerSocket server;
  private final List<Socket> held = new CopyOnWriteArrayList<>();

  /**
   * Listens on an ephemeral loopback port.
   *
   * @throws IOException if no port can be bound
   */
  public SilentServer() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::acceptAll, "silent-server-" + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private void acceptAll() {
    try {
      while (true) {
        held.add(server.accept());
      }
    } catch (IOException closed) {
      // the server was closed: the test is over
    }
  }

  /**
   * @return the port it listens on
   */
  public int port() {
    return server.getLocalPort();
  }

  /**
   * @return connections accepted so far
   */
  public int accepted() {
    return held.size();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : held) {
      s.close();
    }
  }
}
