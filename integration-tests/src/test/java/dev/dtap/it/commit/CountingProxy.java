package dev.dtap.it.commit;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small HTTP forward proxy for tests, on loopback: it asks for Basic proxy credentials (407),
 * then forwards each request it is given in absolute form to its origin over a connection of its
 * own, relaying interim (100 Continue) and final answers, and counts the requests it forwarded,
 * keeping each one's method, target and {@code Referer} (S3A's audit header). Enough HTTP/1.1 for
 * S3 clients: bodies framed by Content-Length or chunked coding, keep-alive. Thread-safe.
 */
final class CountingProxy implements Closeable {
  private final ServerSocket server;
  private final String expectedAuth;
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "counting-proxy");
            t.setDaemon(true);
            return t;
          });
  private final AtomicLong forwarded = new AtomicLong();
  private final AtomicLong challenged = new AtomicLong();
  private final Queue<Forwarded> log = new ConcurrentLinkedQueue<>();

  /** A request the proxy forwarded. */
  static final class Forwarded {
    final String method;
    final String target;

    /** S3A's audit header, or null. */
    final String referer;

    Forwarded(String method, String target, String referer) {
      this.method = method;
      this.target = target;
      this.referer = referer;
    }

    @Override
    public String toString() {
      return method + " " + target + " referer=" + referer;
    }
  }

  CountingProxy(String user, String password) throws IOException {
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.expectedAuth =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    threads.execute(this::accept);
  }

  int port() {
    return server.getLocalPort();
  }

  /**
   * @return requests forwarded to an origin so far
   */
  long forwarded() {
    return forwarded.get();
  }

  /**
   * @return requests refused for want of credentials so far
   */
  long challenged() {
    return challenged.get();
  }

  /**
   * @return the requests forwarded so far, in the order they came
   */
  List<Forwarded> log() {
    return new ArrayList<>(log);
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        threads.execute(() -> serve(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket client) {
    Socket origin = null;
    String originAuthority = null;
    try (Socket c = client) {
      InputStream in = c.getInputStream();
      OutputStream out = c.getOutputStream();
      while (true) {
        List<String> head = readHead(in);
        if (head == null) {
          return;
        }
        String[] line = head.get(0).split(" ", 3);
        String auth = header(head, "proxy-authorization");
        long length = length(head);
        boolean chunked = "chunked".equalsIgnoreCase(header(head, "transfer-encoding"));
        if (!expectedAuth.equals(auth)) {
          challenged.incrementAndGet();
          if (header(head, "expect") == null) {
            skipBody(in, length, chunked);
          }
          out.write(
              ("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic"
                      + " realm=\"dtap\"\r\n"
                      + "Content-Length: 0\r\n"
                      + (header(head, "expect") != null ? "Connection: close\r\n" : "")
                      + "\r\n")
                  .getBytes(StandardCharsets.ISO_8859_1));
          out.flush();
          if (header(head, "expect") != null) {
            return; // the body was not sent: the connection cannot be reused
          }
          continue;
        }
        URI target = URI.create(line[1]);
        String authority = target.getHost() + ":" + target.getPort();
        if (origin == null || !authority.equals(originAuthority)) {
          if (origin != null) {
            origin.close();
          }
          origin = new Socket(target.getHost(), target.getPort());
          originAuthority = authority;
        }
        forwarded.incrementAndGet();
        log.add(new Forwarded(line[0], line[1], header(head, "referer")));
        StringBuilder req = new StringBuilder();
        req.append(line[0]).append(' ').append(target.getRawPath());
        if (target.getRawQuery() != null) {
          req.append('?').append(target.getRawQuery());
        }
        req.append(' ').append(line[2]).append("\r\n");
        for (String h : head.subList(1, head.size())) {
          String n = h.substring(0, h.indexOf(':')).trim().toLowerCase(Locale.ROOT);
          if (!n.startsWith("proxy-")) {
            req.append(h).append("\r\n");
          }
        }
        req.append("\r\n");
        OutputStream toOrigin = origin.getOutputStream();
        InputStream fromOrigin = origin.getInputStream();
        toOrigin.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
        toOrigin.flush();
        boolean expect = "100-continue".equalsIgnoreCase(header(head, "expect"));
        List<String> answer;
        if (expect) {
          answer = readHead(fromOrigin);
          relayHead(answer, out);
          if (!answer.get(0).contains(" 100 ")) {
            relayBody(fromOrigin, out, answer, line[0]);
            continue; // refused before the body: the client does not send it
          }
        }
        copyBody(in, toOrigin, length, chunked);
        toOrigin.flush();
        answer = readHead(fromOrigin);
        while (answer.get(0).contains(" 100 ")) {
          relayHead(answer, out);
          answer = readHead(fromOrigin);
        }
        relayHead(answer, out);
        relayBody(fromOrigin, out, answer, line[0]);
      }
    } catch (IOException e) {
      // a client or origin went away
    } finally {
      if (origin != null) {
        try {
          origin.close();
        } catch (IOException e) {
          // closing
        }
      }
    }
  }

  private static void relayHead(List<String> head, OutputStream out) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (String h : head) {
      sb.append(h).append("\r\n");
    }
    out.write(sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  private static void relayBody(
      InputStream from, OutputStream out, List<String> head, String method) throws IOException {
    String status = head.get(0).split(" ")[1];
    if (method.equals("HEAD") || status.equals("204") || status.equals("304")) {
      return;
    }
    copyBody(
        from, out, length(head), "chunked".equalsIgnoreCase(header(head, "transfer-encoding")));
    out.flush();
  }

  private static void skipBody(InputStream in, long length, boolean chunked) throws IOException {
    copyBody(in, OutputStream.nullOutputStream(), length, chunked);
  }

  private static void copyBody(InputStream in, OutputStream out, long length, boolean chunked)
      throws IOException {
    if (chunked) {
      while (true) {
        String size = readLine(in);
        out.write((size + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        long n = Long.parseLong(size.split(";")[0].trim(), 16);
        if (n == 0) {
          String trailer;
          while (!(trailer = readLine(in)).isEmpty()) {
            out.write((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
          }
          out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
          return;
        }
        copy(in, out, n);
        readLine(in);
        out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
      }
    }
    copy(in, out, Math.max(0, length));
  }

  private static void copy(InputStream in, OutputStream out, long n) throws IOException {
    byte[] buf = new byte[64 << 10];
    while (n > 0) {
      int r = in.read(buf, 0, (int) Math.min(buf.length, n));
      if (r < 0) {
        throw new IOException("stream ended " + n + " bytes early");
      }
      out.write(buf, 0, r);
      n -= r;
    }
  }

  private static long length(List<String> head) {
    String v = header(head, "content-length");
    return v == null ? 0 : Long.parseLong(v.trim());
  }

  private static String header(List<String> head, String name) {
    for (String h : head.subList(1, head.size())) {
      int colon = h.indexOf(':');
      if (colon > 0 && h.substring(0, colon).trim().equalsIgnoreCase(name)) {
        return h.substring(colon + 1).trim();
      }
    }
    return null;
  }

  /**
   * @return the start line and header lines, or null at the end of the stream
   */
  private static List<String> readHead(InputStream in) throws IOException {
    List<String> lines = new ArrayList<>();
    String l = readLine(in);
    if (l == null) {
      return null;
    }
    while (!l.isEmpty()) {
      lines.add(l);
      l = readLine(in);
      if (l == null) {
        throw new IOException("stream ended in a header");
      }
    }
    return lines.isEmpty() ? readHead(in) : lines;
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) >= 0) {
      if (c == '\n') {
        byte[] bytes = b.toByteArray();
        int n =
            bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
      }
      b.write(c);
    }
    return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    server.close();
    threads.shutdownNow();
  }
}
