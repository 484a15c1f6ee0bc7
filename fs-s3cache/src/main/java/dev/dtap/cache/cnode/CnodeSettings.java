package dev.dtap.cache.cnode;

import dev.dtap.fs.config.ConfigReader;
import dev.dtap.fs.config.InvalidConfigurationException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The cache service's settings and its clients', parsed and validated once. The secret is kept as
 * bytes and never shown: {@link #toString()} leaves it out. Immutable and thread-safe.
 */
public final class CnodeSettings {
  private static final int MIN_SECRET = 16;

  private final Path socket;
  private final int port;
  private final String bindHost;
  private final String host;
  private final Map<String, InetSocketAddress> peers;
  private final byte[] secret;
  private final String socketGroup;
  private final Duration connectTimeout;
  private final Duration requestTimeout;
  private final Duration fillWait;
  private final Duration fillLease;
  private final Duration writeDeadline;
  private final int breakerFailures;
  private final Duration breakerOpen;
  private final int descriptors;
  private final boolean shortCircuit;
  private final Duration peerTimeout;
  private final int diskThreads;

  private CnodeSettings(Configuration conf, Path socket, byte[] secret)
      throws InvalidConfigurationException {
    this.socket = socket;
    this.secret = secret;
    this.port = CnodeKeys.PORT.get(conf);
    this.bindHost = CnodeKeys.BIND_HOST.get(conf, "0.0.0.0");
    this.host = CnodeKeys.HOST.get(conf, localHostName());
    this.peers = parsePeers(CnodeKeys.PEERS.get(conf, ""));
    this.socketGroup = CnodeKeys.SOCKET_GROUP.get(conf, "");
    this.connectTimeout = CnodeKeys.CONNECT_TIMEOUT.get(conf);
    this.requestTimeout = CnodeKeys.REQUEST_TIMEOUT.get(conf);
    this.fillWait = CnodeKeys.FILL_WAIT.get(conf);
    this.fillLease = CnodeKeys.FILL_LEASE.get(conf);
    this.writeDeadline = CnodeKeys.WRITE_DEADLINE.get(conf);
    this.breakerFailures = CnodeKeys.BREAKER_FAILURES.get(conf);
    this.breakerOpen = CnodeKeys.BREAKER_OPEN.get(conf);
    this.descriptors = CnodeKeys.DESCRIPTORS.get(conf);
    this.shortCircuit = CnodeKeys.SHORT_CIRCUIT.get(conf);
    this.peerTimeout = CnodeKeys.PEER_TIMEOUT.get(conf);
    this.diskThreads = CnodeKeys.DISK_THREADS.get(conf);
  }

  /**
   * The settings, if a cache service is configured.
   *
   * @param conf the site configuration
   * @return the settings, or null when {@code fs.dtap.cnode.socket} is unset
   * @throws InvalidConfigurationException naming the key on any bad value, a missing or short
   *     secret included
   */
  public static CnodeSettings parse(Configuration conf) throws InvalidConfigurationException {
    String socket = CnodeKeys.SOCKET.get(conf);
    if (socket == null || socket.isEmpty()) {
      return null;
    }
    Path path = ConfigReader.localPath(CnodeKeys.SOCKET.name(), socket, true);
    return new CnodeSettings(conf, path, secret(conf));
  }

  /**
   * The settings a service needs, configured or not: its socket is required.
   *
   * @param conf the service's configuration
   * @return the settings
   * @throws InvalidConfigurationException naming the key when the socket is unset or a value bad
   */
  public static CnodeSettings forService(Configuration conf) throws InvalidConfigurationException {
    CnodeSettings s = parse(conf);
    if (s == null) {
      throw ConfigReader.invalid(
          CnodeKeys.SOCKET.name(), null, "the absolute path of the service's Unix domain socket");
    }
    return s;
  }

  private static byte[] secret(Configuration conf) throws InvalidConfigurationException {
    char[] chars;
    try {
      chars = conf.getPassword(CnodeKeys.SECRET.name());
    } catch (IOException e) {
      throw new InvalidConfigurationException(
          CnodeKeys.SECRET.name()
              + " cannot be read from the credential providers: "
              + e.getClass().getSimpleName());
    }
    if (chars == null || chars.length == 0) {
      throw new InvalidConfigurationException(
          CnodeKeys.SECRET.name()
              + " is required with "
              + CnodeKeys.SOCKET.name()
              + ": the cluster secret that proves requests to the cache service");
    }
    byte[] bytes = new String(chars).getBytes(StandardCharsets.UTF_8);
    java.util.Arrays.fill(chars, '\0');
    if (bytes.length < MIN_SECRET) {
      throw new InvalidConfigurationException(
          CnodeKeys.SECRET.name() + " is too short: at least " + MIN_SECRET + " bytes");
    }
    return bytes;
  }

  private static Map<String, InetSocketAddress> parsePeers(String text)
      throws InvalidConfigurationException {
    Map<String, InetSocketAddress> m = new HashMap<>();
    for (String entry : text.split(",")) {
      String e = entry.trim();
      if (e.isEmpty()) {
        continue;
      }
      int eq = e.indexOf('=');
      int colon = e.lastIndexOf(':');
      int port = -1;
      if (eq > 0 && colon > eq + 1) {
        try {
          port = Integer.parseInt(e.substring(colon + 1));
        } catch (NumberFormatException ex) {
          port = -1;
        }
      }
      if (port < 1 || port > 65535) {
        throw ConfigReader.invalid(CnodeKeys.PEERS.name(), text, "host=address:port,...");
      }
      m.put(
          e.substring(0, eq).trim(),
          InetSocketAddress.createUnresolved(e.substring(eq + 1, colon).trim(), port));
    }
    return Collections.unmodifiableMap(m);
  }

  private static String localHostName() {
    try {
      return InetAddress.getLocalHost().getCanonicalHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  /**
   * @return the service's Unix domain socket
   */
  public Path socket() {
    return socket;
  }

  /**
   * @return the service's TCP port
   */
  public int port() {
    return port;
  }

  String bindHost() {
    return bindHost;
  }

  /**
   * @return this host's name as the locality placement knows it
   */
  public String host() {
    return host;
  }

  /**
   * Where a peer's service listens.
   *
   * @param peerHost a host name of the placement
   * @return its address
   */
  InetSocketAddress peerAddress(String peerHost) {
    InetSocketAddress a = peers.get(peerHost);
    return a != null ? a : InetSocketAddress.createUnresolved(peerHost, port);
  }

  byte[] secret() {
    return secret;
  }

  String socketGroup() {
    return socketGroup;
  }

  /**
   * @return the client's connect deadline
   */
  public Duration connectTimeout() {
    return connectTimeout;
  }

  /**
   * @return the client's request deadline
   */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  Duration fillWait() {
    return fillWait;
  }

  Duration fillLease() {
    return fillLease;
  }

  Duration writeDeadline() {
    return writeDeadline;
  }

  /**
   * @return failures that open a client's breaker
   */
  public int breakerFailures() {
    return breakerFailures;
  }

  /**
   * @return how long a client's breaker stays open
   */
  public Duration breakerOpen() {
    return breakerOpen;
  }

  /**
   * @return open page files a client keeps
   */
  public int descriptors() {
    return descriptors;
  }

  boolean shortCircuit() {
    return shortCircuit;
  }

  Duration peerTimeout() {
    return peerTimeout;
  }

  int diskThreads() {
    return diskThreads;
  }

  /**
   * @return what identifies these settings for sharing one client per JVM (never the secret)
   */
  public String identity() {
    return socket + "|" + host + "|" + port + "|" + shortCircuit;
  }

  @Override
  public String toString() {
    return "CnodeSettings{socket=" + socket + ", host=" + host + ", port=" + port + "}";
  }
}
