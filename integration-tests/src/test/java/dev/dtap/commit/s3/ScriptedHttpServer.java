package dev.dtap.commit.s3;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP/1.1 server on the loopback address that answers each connection with a script, to drive
 * {@link DirectPartTransport} through what real stores do now and then (no 100 Continue, an answer
 * before the body, chunked bodies, closed keep-alive connections). Records every body it reads.
 */
final class ScriptedHttpServer implements AutoCloseable {
  /** What the server does with one accepted connection. */
  interface Script {
    void serve(Exchange exchange) throws IOException;
  }

  /** One accepted connection, seen from the server. */
  final class Exchange {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    Exchange(Socket socket) throws IOException {
      this.socket = socket;
      this.in = socket.getInputStream();
      this.out = socket.getOutputStream();
    }

    /** @return the request line and headers up to the empty line, or null if the client closed */
    String readHead() throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int c;
      while ((c = in.read()) >= 0) {
        head.write(c);
        String s = head.toString(StandardCharsets.ISO_8859_1);
        if (s.endsWith("\r\n\r\n")) {
          heads.add(s);
          return s;
        }
      }
      return null;
    }

    /** Reads the body the head announced and records it. */
    byte[] readBody(String head) throws IOException {
      int length = Integer.parseInt(header(head, "content-length"));
      byte[] body = in.readNBytes(length);
      bodies.add(body);
      return body;
    }

    /**
     * Takes a whole request: its head, a 100 Continue if the client asks for one, and its body.
     *
     * @return the head, or null if the client closed the connection instead
     */
    String takeRequest() throws IOException {
      String head = readHead();
      if (head == null) {
        return null;
      }
      if ("100-continue".equalsIgnoreCase(header(head, "expect"))) {
        send("HTTP/1.1 100 Continue\r\n\r\n");
      }
      readBody(head);
      return head;
    }

    void send(String raw) throws IOException {
      out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
    }

    /**
     * @return how many bytes the client sends before it closes the connection, or -1 if it keeps it
     *     open for five seconds
     */
    int countUntilClosed() throws IOException {
      socket.setSoTimeout(5000);
      int n = 0;
      try {
        while (in.read() >= 0) {
          n++;
        }
      } catch (java.net.SocketTimeoutException e) {
        return -1;
      } catch (IOException e) {
        // a reset is a close too
      }
      return n;
    }

    void close() throws IOException {
      socket.close();
    }
  }

  private final ServerSocket server;
  private final Script script;
  private final Thread acceptor;
  private final AtomicInteger connections = new AtomicInteger();
  final List<String> heads = new CopyOnWriteArrayList<>();
  final List<byte[]> bodies = new CopyOnWriteArrayList<>();
  final List<Throwable> failures = new CopyOnWriteArrayList<>();

  ScriptedHttpServer(Script script) throws IOException {
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.script = script;
    this.acceptor = new Thread(this::acceptLoop, "scripted-http");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        connections.incrementAndGet();
        Thread t =
            new Thread(
                () -> {
                  try (s) {
                    script.serve(new Exchange(s));
                  } catch (SocketException e) {
                    // the client closed or aborted: part of several scripts
                  } catch (Throwable e) {
                    failures.add(e);
                  }
                },
                "scripted-http-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  static String header(String head, String name) {
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals(name)) {
        return line.substring(colon + 1).trim();
      }
    }
    return null;
  }

  int port() {
    return server.getLocalPort();
  }

  int connections() {
    return connections.get();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
