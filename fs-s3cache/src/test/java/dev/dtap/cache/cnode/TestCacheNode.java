package dev.dtap.cache.cnode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.cache.HeldDisk;
import dev.dtap.cache.disk.PageFile;
import dev.dtap.cache.disk.PageKey;
import dev.dtap.fs.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One service in this JVM and clients over its real Unix domain socket. */
class TestCacheNode {
  private CnodeTestSupport support;
  private CacheNode node;
  private final List<CnodeClient> clients = new ArrayList<>();
  private final byte[] page = new byte[300_000];
  private final PageKey key = new PageKey(0x1234, 0x5678);

  @BeforeEach
  void setUp() throws IOException {
    new Random(3).nextBytes(page);
    support = new CnodeTestSupport("tcn");
    node = support.start();
  }

  @AfterEach
  void tearDown() {
    clients.forEach(CnodeClient::close);
    if (node != null) {
      node.close();
    }
  }

  private CnodeClient client() throws IOException {
    CnodeClient c = support.client();
    clients.add(c);
    return c;
  }

  private CnodeClient client(Configuration overrides) throws IOException {
    CnodeClient c = support.client(overrides);
    clients.add(c);
    return c;
  }

  private static byte[] read(PageLookup l) throws IOException {
    if (l.data() != null) {
      return l.data();
    }
    PageChannel p = l.channel();
    byte[] data = new byte[p.header().length()];
    PageFile.read(p.channel(), p.header(), 0, data, 0, data.length);
    p.channel().close();
    return data;
  }

  /** Starts a lookup of {@link #key} that waits for another client's fill, and sees it wait. */
  private Future<PageLookup> waitBehindAFill(CnodeClient waiter, ExecutorService pool)
      throws Exception {
    Future<PageLookup> waiting = pool.submit(() -> waiter.lookup(key, true, null));
    Await.until(
        "a lookup waits for the fill", Duration.ofSeconds(30), () -> stat("cnode_fill_waits") == 1);
    return waiting;
  }

  private long stat(String name) {
    return node.stats().get(name);
  }

  @Test
  void aLeaseHolderFillsAndTheNextClientReadsTheFileItself() throws Exception {
    CnodeClient a = client();
    assertThat(a.serviceHost()).isEqualTo("tcn-host");
    PageLookup first = a.lookup(key, true, null);
    assertThat(first.isHit()).isFalse();
    assertThat(first.lease()).isPositive();
    a.fill(first.lease(), key, page);
    a.flush();

    CnodeClient b = client();
    PageLookup hit = b.lookup(key, true, null);
    assertThat(hit.channel()).as("a short-circuit hit: an open file").isNotNull();
    assertThat(read(hit)).isEqualTo(page);
    b.release(key);
    assertThat(stat("cnode_fills")).isEqualTo(1);
    assertThat(stat("cnode_short_circuit_grants")).isEqualTo(1);
    // counted once the answer is out, which b may have read and released before that
    Await.until("the hit counted", Duration.ofSeconds(30), () -> stat("cnode_hits") == 1);
    assertThat(stat("cnode_pages")).isEqualTo(1);
  }

  @Test
  void clientsMissingOnePageAtOnceCauseOneFill() throws Exception {
    int n = 6;
    List<CnodeClient> cs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      cs.add(client());
    }
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<byte[]>> results = new ArrayList<>();
      for (CnodeClient c : cs) {
        Callable<byte[]> read =
            () -> {
              PageLookup l = c.lookup(key, true, null);
              if (l.isHit()) {
                return read(l);
              }
              assertThat(l.lease()).as("a lease, never a plain miss").isPositive();
              c.fill(l.lease(), key, page); // this client "read the backend"
              return page;
            };
        results.add(pool.submit(read));
      }
      for (Future<byte[]> r : results) {
        assertThat(r.get()).isEqualTo(page);
      }
    } finally {
      pool.shutdown();
    }
    assertThat(stat("cnode_fills")).as("one backend read for %d clients", n).isEqualTo(1);
    assertThat(stat("cnode_fill_leases")).isEqualTo(1);
  }

  @Test
  void aPageWriteThatHangsIsAbandonedAndItsFillPassesToAWaiter() throws Exception {
    node.close();
    HeldDisk disk = new HeldDisk();
    support.conf.set(CnodeKeys.WRITE_DEADLINE.name(), "200ms");
    support.conf.set(CnodeKeys.FILL_WAIT.name(), "10m"); // the waiter is freed by the deadline
    node = CacheNodes.start(support.conf, disk);
    CnodeClient a = client();
    PageLookup lease = a.lookup(key, true, null);
    assertThat(lease.lease()).isPositive();
    CnodeClient b = client();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<PageLookup> waiting = waitBehindAFill(b, pool);
      a.fill(lease.lease(), key, page); // the service's disk takes the page and hangs
      PageLookup handed = waiting.get(5, TimeUnit.MINUTES);
      assertThat(handed.lease()).as("the fill passed to the waiter").isPositive();
      // the deadline counts from the hand-over: the write hangs in the disk, or (a busy machine)
      // was given up while still queued for a disk thread and never starts
      assertThat(disk.writes.get()).isBetween(0, 1);
      assertThat(stat("cnode_writes_abandoned")).isEqualTo(1);
      assertThat(stat("cnode_fills")).isZero();
      assertThat(stat("cnode_fills_in_progress")).as("b's fill, under its lease").isEqualTo(1);
    } finally {
      disk.release.countDown();
      pool.shutdown();
    }
    // the disk takes pages again (b's, or another's)
    PageKey other = new PageKey(0x1234, 0x9999);
    CnodeClient c = client();
    c.fill(c.lookup(other, true, null).lease(), other, page);
    c.flush();
    // every write the disk took lands, a late one too, and is kept
    Await.until(
        "each write the disk took on disk",
        Duration.ofSeconds(30),
        () -> stat("cnode_pages") == disk.writes.get());
    int landed = 0;
    for (PageKey k : new PageKey[] {key, other}) {
      PageLookup l = client().lookup(k, false, null);
      if (l.isHit()) {
        assertThat(read(l)).isEqualTo(page);
        landed++;
      }
    }
    assertThat(landed)
        .as("pages readable, one per write the disk took")
        .isEqualTo(disk.writes.get());
  }

  @Test
  void aClientThatReadsSlowlyHoldsFewPagesAndItsRequestsPause() throws Exception {
    byte[] big = new byte[1 << 20];
    new Random(5).nextBytes(big);
    CnodeClient a = client();
    a.fill(a.lookup(key, true, null).lease(), key, big);
    a.flush();
    Configuration bytesOnly = new Configuration(false);
    bytesOnly.set(CnodeKeys.SHORT_CIRCUIT.name(), "false");
    bytesOnly.set(CnodeKeys.REQUEST_TIMEOUT.name(), "1m");
    CnodeClient slow = client(bytesOnly);
    slow.dataChannel().config().setAutoRead(false); // it stops reading what the service answers
    int n = 64;
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<PageLookup>> lookups = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        lookups.add(pool.submit(() -> slow.lookup(key, false, null)));
      }
      Await.until(
          "the service stops reading the slow client",
          Duration.ofSeconds(60),
          () -> stat("cnode_reads_paused") >= 1);
      // its next requests wait unread; of those read, at most 16 pages of 1 MiB were read for it
      // (none of which fits the socket's buffer), the rest answered as misses
      long readWhileStalled = stat("cnode_hits");
      assertThat(readWhileStalled)
          .as("pages read for a client that does not read")
          .isLessThanOrEqualTo(ServerConnection.BYTE_HITS_IN_FLIGHT);
      slow.dataChannel().config().setAutoRead(true);
      int hits = 0;
      for (Future<PageLookup> f : lookups) {
        PageLookup l = f.get(1, TimeUnit.MINUTES);
        if (l.data() != null) {
          assertThat(l.data()).isEqualTo(big);
          hits++;
        }
      }
      System.out.printf(
          "slow client: %d lookups, %d pages read while it did not read, %d hits, %d shed as"
              + " misses, reading paused %d time(s)%n",
          n, readWhileStalled, hits, stat("cnode_hits_shed"), stat("cnode_reads_paused"));
      assertThat(hits).isEqualTo((int) stat("cnode_hits")).isPositive();
      assertThat(n - hits).isEqualTo((int) stat("cnode_hits_shed"));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aLeaseHolderThatDisconnectsHandsTheFillToAWaiter() throws Exception {
    CnodeClient a = client();
    PageLookup lease = a.lookup(key, true, null);
    assertThat(lease.lease()).isPositive();
    CnodeClient b = client();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<PageLookup> waiting = waitBehindAFill(b, pool);
      a.close(); // dies without filling
      PageLookup handed = waiting.get();
      assertThat(handed.lease()).as("the lease passed to the waiter").isPositive();
      b.fill(handed.lease(), key, page);
      b.flush();
    } finally {
      pool.shutdown();
    }
    assertThat(read(client().lookup(key, false, null))).isEqualTo(page);
  }

  @Test
  void aWaiterOutlastsItsRequestDeadlineWhileAnotherJvmFills() throws Exception {
    CnodeClient a = client();
    PageLookup lease = a.lookup(key, true, null);
    assertThat(lease.lease()).isPositive();
    Configuration quick = new Configuration(false);
    // long enough for the "wait" to arrive on a loaded machine, short next to the fill bound
    quick.set(CnodeKeys.REQUEST_TIMEOUT.name(), "3s");
    CnodeClient b = client(quick);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<PageLookup> waiting = pool.submit(() -> b.lookup(key, true, null));
      // the client itself says its deadline passed and it goes on waiting for a's fill
      Await.until(
          "b waits past its request deadline",
          Duration.ofSeconds(30),
          () -> b.waitsPastDeadline() == 1 || waiting.isDone());
      assertThat(waiting).as("b still waits: it has not given up").isNotDone();
      assertThat(stat("cnode_fill_waits")).isEqualTo(1);
      // a wait the service announced is bounded by the fill wait (10 s), not the request deadline
      a.fill(lease.lease(), key, page);
      PageLookup hit = waiting.get();
      assertThat(hit.isHit()).isTrue();
      assertThat(read(hit)).isEqualTo(page);
    } finally {
      pool.shutdown();
    }
    assertThat(stat("cnode_fills")).as("one backend read").isEqualTo(1);
  }

  @Test
  void aPeerThatNeverShakesHandsIsGivenUpAtThePeerDeadline() throws Exception {
    // the kernel accepts connections for it, and it never says a word: a stopped JVM
    try (ServerSocket stuck = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      node.close();
      support.conf.set(CnodeKeys.PEERS.name(), "stuck=127.0.0.1:" + stuck.getLocalPort());
      support.conf.set(CnodeKeys.PEER_TIMEOUT.name(), "200ms");
      support.conf.set(CnodeKeys.FILL_WAIT.name(), "30s");
      node = support.start();
      PageLookup first = client().lookup(key, true, "stuck");
      assertThat(first.lease())
          .as("the peer was given up, and the asking client reads the backend")
          .isPositive();
      assertThat(stat("cnode_peer_reads_asked")).isEqualTo(1);
      assertThat(stat("cnode_fill_wait_timeouts")).isZero();
    }
  }

  @Test
  void aLargeFrameBeforeAuthenticationIsRefusedOnItsHeader() throws Exception {
    long before = stat("cnode_auth_failures");
    try (Socket s = new Socket("127.0.0.1", node.port())) {
      s.setSoTimeout(60_000);
      // announces a frame of 1 MiB and sends a few bytes of it: refused, not buffered
      s.getOutputStream().write(new byte[] {0, 16, 0, 0, 1, 2, 3});
      InputStream in = s.getInputStream();
      try {
        while (in.read(new byte[4096]) >= 0) {
          // the service's HELLO, then the end
        }
      } catch (SocketException e) {
        // reset: closed with our bytes unread
      }
    }
    Await.until(
        "the refusal is counted",
        Duration.ofSeconds(30),
        () -> stat("cnode_auth_failures") == before + 1);
    assertThat(stat("cnode_handshake_timeouts")).as("not dropped for being slow").isZero();
  }

  @Test
  void withoutShortCircuitThePageTravelsAsBytes() throws Exception {
    CnodeClient a = client();
    a.fill(a.lookup(key, true, null).lease(), key, page);
    a.flush();
    Configuration bytes = new Configuration(false);
    bytes.set(CnodeKeys.SHORT_CIRCUIT.name(), "false");
    PageLookup hit = client(bytes).lookup(key, false, null);
    assertThat(hit.channel()).isNull();
    assertThat(hit.data()).isEqualTo(page);
    assertThat(stat("cnode_short_circuit_grants")).isZero();
  }

  @Test
  void aMissWithoutLeaveToFillIsAPlainMiss() throws Exception {
    PageLookup l = client().lookup(key, false, null);
    assertThat(l.isHit()).isFalse();
    assertThat(l.lease()).isNegative();
  }

  @Test
  void aClientWithTheWrongSecretIsRefusedAndCounted() throws Exception {
    Configuration wrong = new Configuration(false);
    wrong.set(CnodeKeys.SECRET.name(), "not-the-cluster-secret-at-all");
    assertThatThrownBy(() -> support.client(wrong))
        .isInstanceOf(IOException.class)
        .hasMessageNotContaining(CnodeTestSupport.SECRET);
    Await.until(
        "the refusal is counted", Duration.ofSeconds(30), () -> stat("cnode_auth_failures") >= 1);
    // the service still serves
    assertThat(client().lookup(key, false, null).isHit()).isFalse();
  }

  /** Writes bytes to a connection and reads until the service closes it. */
  private static void sendAndDrain(java.net.Socket s, byte[] bytes) throws IOException {
    s.setSoTimeout(60_000);
    try {
      s.getOutputStream().write(bytes);
      s.shutdownOutput();
      java.io.InputStream in = s.getInputStream();
      byte[] sink = new byte[4096];
      while (in.read(sink) >= 0) {
        // the service's HELLO, then nothing: the connection ends
      }
    } catch (java.net.SocketException e) {
      // reset: the service closed it with our bytes unread, as it should
    }
  }

  @Test
  void garbageAndUnauthenticatedFramesAreRefusedAndLeaveNothingBehind() throws Exception {
    Random r = new Random(17);
    for (int i = 0; i < 300; i++) {
      byte[] junk = new byte[1 + r.nextInt(3000)];
      r.nextBytes(junk);
      if (i % 3 == 0 && junk.length > 4) {
        // a plausible length, so that the junk reaches the frame decoder
        int len = Math.min(junk.length - 4, r.nextInt(64));
        junk[0] = 0;
        junk[1] = 0;
        junk[2] = 0;
        junk[3] = (byte) len;
      }
      try (java.net.Socket s = new java.net.Socket("127.0.0.1", node.port())) {
        sendAndDrain(s, junk);
      }
    }
    long authFailures = stat("cnode_auth_failures");
    // a well-formed lookup that skips the handshake
    java.nio.ByteBuffer lookup = java.nio.ByteBuffer.allocate(4 + 9 + 19 + 16);
    lookup.putInt(9 + 19 + 16).put(Wire.LOOKUP).putLong(1).putLong(1).putLong(2).put((byte) 2);
    lookup.putShort((short) 0);
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", node.port())) {
      sendAndDrain(s, lookup.array());
    }
    Await.until(
        "the unauthenticated lookup is counted",
        Duration.ofSeconds(30),
        () -> stat("cnode_auth_failures") == authFailures + 1);
    Await.until(
        "every connection is gone", Duration.ofSeconds(30), () -> stat("cnode_sessions") == 0);
    assertThat(stat("cnode_lookups")).as("nothing was looked up").isZero();
    assertThat(stat("cnode_connections")).isEqualTo(301);
    // and the service still serves
    CnodeClient a = client();
    a.fill(a.lookup(key, true, null).lease(), key, page);
    a.flush();
    assertThat(read(client().lookup(key, false, null))).isEqualTo(page);
  }

  @Test
  void pagesSurviveARestart() throws Exception {
    CnodeClient a = client();
    a.fill(a.lookup(key, true, null).lease(), key, page);
    a.flush();
    a.close();
    node.close();
    node = support.start();
    assertThat(stat("cnode_pages")).isEqualTo(1);
    assertThat(read(client().lookup(key, false, null))).isEqualTo(page);
  }

  @Test
  void theCountersAreInJmx() throws Exception {
    CnodeClient a = client();
    a.fill(a.lookup(key, true, null).lease(), key, page);
    a.flush();
    read(client().lookup(key, false, null));
    javax.management.ObjectName name =
        new javax.management.ObjectName("Hadoop:service=dtap-cnode,name=CacheNode-tcn-host");
    javax.management.MBeanServer jmx =
        java.lang.management.ManagementFactory.getPlatformMBeanServer();
    // JMX shows the values of the last metrics period (one second in the tests' settings)
    Await.until(
        "JMX shows the hit",
        Duration.ofSeconds(30),
        () -> ((Number) jmx.getAttribute(name, "cnode_hits")).longValue() == 1);
    assertThat(((Number) jmx.getAttribute(name, "cnode_fills")).longValue()).isEqualTo(1);
    assertThat(((Number) jmx.getAttribute(name, "cnode_pages")).longValue()).isEqualTo(1);
    assertThat(((Number) jmx.getAttribute(name, "cnode_short_circuit_grants")).longValue())
        .isEqualTo(1);
    node.close();
    node = null;
    assertThat(jmx.isRegistered(name)).as("gone with the service").isFalse();
  }

  @Test
  void everyKeyIsDocumentedWithItsDefault() throws IOException {
    dev.dtap.fs.testing.ConfigDocs.assertDocumented(CnodeKeys.all());
  }

  @Test
  void theServiceRefusesToStartWithoutASecretNamingTheKey() {
    Configuration c = new Configuration(support.conf);
    c.unset(CnodeKeys.SECRET.name());
    assertThatThrownBy(() -> CacheNode.start(c))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(CnodeKeys.SECRET.name());
    c.set(CnodeKeys.SECRET.name(), "short");
    assertThatThrownBy(() -> CacheNode.start(c)).hasMessageContaining("too short");
  }
}
