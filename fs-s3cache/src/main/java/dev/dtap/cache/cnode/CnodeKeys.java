package dev.dtap.cache.cnode;

import dev.dtap.fs.config.ConfigKey;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Every configuration key of the host's cache service (the cnode) and of its clients; documented in
 * docs/configuration.md. The service reads them from the NodeManager's configuration (as an
 * auxiliary service) or from the {@code dtap cnode} command's; clients from the job's.
 */
public final class CnodeKeys {
  public static final ConfigKey<String> SOCKET =
      ConfigKey.text(
          "fs.dtap.cnode.socket",
          null,
          "Path of the Unix domain socket of the host's cache service. Set in the jobs'"
              + " configuration, every cached tap reads through the service (one cache per host,"
              + " shared by all task JVMs); the service listens here. Unset: each JVM caches on"
              + " its own.");

  public static final ConfigKey<Integer> PORT =
      ConfigKey.integer(
          "fs.dtap.cnode.port",
          8849,
          0,
          65535,
          "TCP port of the cache service: peer services ask it for pages, and clients on a"
              + " machine without native epoll use it instead of the socket. 0: any free port"
              + " (a service alone on its host, or a test).");

  public static final ConfigKey<String> BIND_HOST =
      ConfigKey.text(
          "fs.dtap.cnode.bind.host", "0.0.0.0", "Address the service's TCP port listens on.");

  public static final ConfigKey<String> HOST =
      ConfigKey.text(
              "fs.dtap.cnode.host",
              null,
              "This host's name as the cluster's locality placement knows it (the NodeManager's"
                  + " host name). A page whose block another host owns is asked of that host's"
                  + " service before the backend.")
          .documentedDefault("the local host name");

  public static final ConfigKey<String> PEERS =
      ConfigKey.text(
          "fs.dtap.cnode.peers",
          null,
          "Where peer services listen when not at <host>:fs.dtap.cnode.port, as"
              + " host=address:port,...");

  /** Read through Hadoop's credential providers; never logged or shown. */
  public static final ConfigKey<String> SECRET =
      ConfigKey.text(
          "fs.dtap.cnode.secret",
          null,
          "The cluster secret that proves every request to a cache service, local or from a"
              + " peer (HMAC-SHA256). Read through hadoop.security.credential.provider.path first."
              + " Required with fs.dtap.cnode.socket; at least 16 bytes.");

  public static final ConfigKey<String> SOCKET_GROUP =
      ConfigKey.text(
          "fs.dtap.cnode.socket.group",
          null,
          "Group of the socket file, which is created 0660: the users whose tasks may use the"
              + " service. Empty: the service user's group.");

  public static final ConfigKey<Duration> CONNECT_TIMEOUT =
      ConfigKey.duration(
          "fs.dtap.cnode.connect.timeout",
          Duration.ofMillis(50),
          "ms",
          Duration.ofMillis(1),
          Duration.ofMinutes(1),
          "How long a client waits to connect to the service (handshake included) before it"
              + " reads without it.");

  public static final ConfigKey<Duration> REQUEST_TIMEOUT =
      ConfigKey.duration(
          "fs.dtap.cnode.request.timeout",
          Duration.ofMillis(50),
          "ms",
          Duration.ofMillis(1),
          Duration.ofMinutes(1),
          "How long a client waits for the service's answer to a request before it reads"
              + " without it (a wait for another JVM's fill has its own bound).");

  public static final ConfigKey<Duration> FILL_WAIT =
      ConfigKey.duration(
          "fs.dtap.cnode.fill.wait",
          Duration.ofSeconds(10),
          "ms",
          Duration.ofMillis(1),
          Duration.ofMinutes(10),
          "How long a client missing a page waits for the JVM (or peer) already filling it"
              + " before it reads the backend itself.");

  public static final ConfigKey<Duration> FILL_LEASE =
      ConfigKey.duration(
          "fs.dtap.cnode.fill.lease",
          Duration.ofSeconds(30),
          "ms",
          Duration.ofMillis(1),
          Duration.ofHours(1),
          "How long a client holding a fill lease may take to hand the page over; then the"
              + " lease passes to a waiting client.");

  public static final ConfigKey<Duration> WRITE_DEADLINE =
      ConfigKey.duration(
          "fs.dtap.cnode.write.deadline",
          Duration.ofSeconds(10),
          "ms",
          Duration.ofMillis(1),
          Duration.ofMinutes(10),
          "How long the service waits for its disk to take one page. A write past it is"
              + " abandoned: the filler is told no, the page's fill passes to a waiting client,"
              + " and the write's bytes stay counted against the disk queue until it ends, so a"
              + " hung disk fills the queue and further pages are refused, never held.");

  public static final ConfigKey<Integer> BREAKER_FAILURES =
      ConfigKey.integer(
          "fs.dtap.cnode.breaker.failures",
          3,
          1,
          1000,
          "Consecutive failed or late requests after which a client stops asking the service"
              + " and reads without it for fs.dtap.cnode.breaker.open.");

  public static final ConfigKey<Duration> BREAKER_OPEN =
      ConfigKey.duration(
          "fs.dtap.cnode.breaker.open",
          Duration.ofSeconds(5),
          "ms",
          Duration.ofMillis(1),
          Duration.ofHours(1),
          "How long a client reads without the service after it failed, before one request"
              + " probes it again.");

  public static final ConfigKey<Integer> DESCRIPTORS =
      ConfigKey.integer(
          "fs.dtap.cnode.descriptors",
          256,
          0,
          65536,
          "Open page files a client keeps, from short-circuit reads, so that re-reads skip the"
              + " service; each keeps its page from eviction while held.");

  public static final ConfigKey<Boolean> SHORT_CIRCUIT =
      ConfigKey.bool(
          "fs.dtap.cnode.short-circuit",
          true,
          "Whether the service hands a cached page over as an open file descriptor (the client"
              + " reads the file itself); false, or without native epoll, the page's bytes travel"
              + " over the socket.");

  public static final ConfigKey<Duration> PEER_TIMEOUT =
      ConfigKey.duration(
          "fs.dtap.cnode.peer.timeout",
          Duration.ofSeconds(2),
          "ms",
          Duration.ofMillis(1),
          Duration.ofMinutes(10),
          "How long a service waits for a peer's page before the client reads the backend.");

  public static final ConfigKey<Integer> DISK_THREADS =
      ConfigKey.integer(
          "fs.dtap.cnode.disk.threads",
          2,
          1,
          256,
          "Threads of the service that write pages handed over to the disk.");

  private static final List<ConfigKey<?>> ALL =
      Collections.unmodifiableList(
          Arrays.asList(
              SOCKET,
              PORT,
              BIND_HOST,
              HOST,
              PEERS,
              SECRET,
              SOCKET_GROUP,
              CONNECT_TIMEOUT,
              REQUEST_TIMEOUT,
              FILL_WAIT,
              FILL_LEASE,
              WRITE_DEADLINE,
              BREAKER_FAILURES,
              BREAKER_OPEN,
              DESCRIPTORS,
              SHORT_CIRCUIT,
              PEER_TIMEOUT,
              DISK_THREADS));

  private CnodeKeys() {}

  /**
   * @return every key, in documentation order
   */
  public static List<ConfigKey<?>> all() {
    return ALL;
  }
}
