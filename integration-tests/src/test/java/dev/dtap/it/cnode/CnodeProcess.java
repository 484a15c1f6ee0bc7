package dev.dtap.it.cnode;

import dev.dtap.cache.cnode.CacheNodeMain;
import dev.dtap.cache.cnode.CnodeClient;
import dev.dtap.cache.cnode.CnodeKeys;
import dev.dtap.cache.cnode.CnodeSettings;
import dev.dtap.fs.testing.Await;
import dev.dtap.it.fixtures.RepoRoot;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * A host's cache service as a process of its own ({@code CacheNodeMain}, as {@code dtap cnode} runs
 * it), over a directory of its own: started, killed with SIGKILL, restarted over the same
 * directory. Its clients get {@link #clientConf()}.
 */
final class CnodeProcess implements AutoCloseable {
  static final String SECRET = "dtapCanary7Q-cnode-it-secret-0123456789";

  private final File dir;
  private final String host;
  private final int port;
  private final Configuration conf;
  private Process process;
  private File output;

  /**
   * @param name the directory's name and the host the service stands for
   * @param peers other services, as {@code host=127.0.0.1:port,...}, or empty
   */
  CnodeProcess(String name, int port, String peers) throws IOException {
    this.dir = new File(RepoRoot.data(), "cn-" + name + "-" + Long.toHexString(System.nanoTime()));
    Files.createDirectories(dir.toPath());
    this.host = name;
    this.port = port;
    conf = new Configuration(false);
    conf.set(CnodeKeys.SOCKET.name(), new File(dir, "s").getAbsolutePath());
    conf.set(CnodeKeys.SECRET.name(), SECRET);
    conf.set(CnodeKeys.PORT.name(), Integer.toString(port));
    conf.set(CnodeKeys.BIND_HOST.name(), "127.0.0.1");
    conf.set(CnodeKeys.HOST.name(), host);
    conf.set(CnodeKeys.PEERS.name(), peers);
    conf.set(CnodeKeys.FILL_WAIT.name(), "60s");
    conf.set("fs.dtap.cache.dirs", new File(dir, "pages").getAbsolutePath());
    conf.set("fs.dtap.cache.max.size", "2g");
  }

  /** A free port of this machine, for services that must know each other's before they start. */
  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  String host() {
    return host;
  }

  int port() {
    return port;
  }

  /** Starts the process and waits until it listens. */
  CnodeProcess start() throws Exception {
    File xml = new File(dir, "cnode-site.xml");
    try (OutputStream out = new FileOutputStream(xml)) {
      conf.writeXml(out);
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(CacheNodeMain.class.getName());
    cmd.add(xml.getAbsolutePath());
    output = new File(RepoRoot.logs(), dir.getName() + "-" + System.nanoTime() + ".out");
    Files.createDirectories(output.getParentFile().toPath());
    process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output).start();
    Await.until(
        "the cache service " + host + " listens (see " + output + ")",
        Duration.ofMinutes(2),
        () -> {
          if (!process.isAlive()) {
            throw new AssertionError("the cache service died; see " + output);
          }
          return new String(Files.readAllBytes(output.toPath()), StandardCharsets.UTF_8)
              .contains("dtap cnode: serving host");
        });
    return this;
  }

  /** Kills the process as the kernel would (SIGKILL): no shutdown hook, no cleanup. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /** The settings a client of this host needs (socket, secret, generous deadlines). */
  Configuration clientConf() {
    Configuration c = new Configuration(false);
    for (String k :
        new String[] {CnodeKeys.SOCKET.name(), CnodeKeys.SECRET.name(), CnodeKeys.PORT.name()}) {
      c.set(k, conf.get(k));
    }
    // a loaded machine must not turn hits into fallbacks; the breaker still opens on a dead service
    c.set(CnodeKeys.CONNECT_TIMEOUT.name(), "5s");
    c.set(CnodeKeys.REQUEST_TIMEOUT.name(), "5s");
    c.set(CnodeKeys.FILL_WAIT.name(), "60s");
    c.set(CnodeKeys.BREAKER_FAILURES.name(), "1");
    c.set(CnodeKeys.BREAKER_OPEN.name(), "200ms");
    return c;
  }

  /** The service's counters and gauges, asked over its socket. */
  Map<String, Long> stats() throws IOException {
    Map<String, Long> m = new LinkedHashMap<>();
    try (CnodeClient c = CnodeClient.connect(CnodeSettings.parse(clientConf()))) {
      for (String line : c.stats().split("\n")) {
        int eq = line.indexOf('=');
        if (eq > 0 && !line.startsWith("dir=") && !line.startsWith("host=")) {
          m.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1)));
        }
      }
    }
    return m;
  }

  long stat(String name) throws IOException {
    return stats().get(name);
  }

  File output() {
    return output;
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy(); // SIGTERM: the shutdown hook stops the service
      process.waitFor();
    }
  }
}
