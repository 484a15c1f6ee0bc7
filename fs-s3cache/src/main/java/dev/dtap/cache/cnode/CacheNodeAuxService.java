package dev.dtap.cache.cnode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;

/**
 * The host's cache service as a YARN NodeManager auxiliary service: it starts and stops with the
 * NodeManager, as MapReduce's shuffle handler does. In {@code yarn-site.xml}:
 *
 * <pre>
 * yarn.nodemanager.aux-services = mapreduce_shuffle,dtap_cnode
 * yarn.nodemanager.aux-services.dtap_cnode.class = dev.dtap.cache.cnode.CacheNodeAuxService
 * </pre>
 *
 * with the {@code fs.dtap.cnode.*} and {@code fs.dtap.cache.*} keys in the NodeManager's
 * configuration. Applications need nothing from it: their tasks connect to the socket.
 *
 * <p>It fails closed for the cache and open for the node, as a DataNode's failing plugin does: a
 * failure to start (a bad setting, a directory it cannot use, a socket or port taken) or to stop is
 * logged with its cause and counted ({@link ServiceFailures}), and never thrown to the NodeManager,
 * which goes on serving containers; their tasks find no service on the socket and cache in their
 * own JVMs. A failed start leaves its cause beside the socket for {@code dtap doctor}. Thread-safe:
 * YARN starts and stops it once.
 */
public final class CacheNodeAuxService extends AuxiliaryService {
  private final ServiceFailures failures = new ServiceFailures();
  private volatile CacheNode node;

  public CacheNodeAuxService() {
    super("dtap_cnode");
  }

  @Override
  protected void serviceStart() throws Exception {
    Configuration conf = getConfig();
    try {
      node = CacheNode.start(conf);
      failures.started(conf);
    } catch (IOException | RuntimeException e) {
      failures.startFailed(conf, e);
    }
    // after the start, whose outcome JMX's first (cached) reading then shows
    failures.register(nodeManagerHost(conf));
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    CacheNode n = node;
    node = null;
    if (n != null) {
      try {
        n.close();
        failures.stopped();
      } catch (RuntimeException e) {
        failures.stopFailed(e);
      }
    }
    failures.unregister();
    super.serviceStop();
  }

  /** The NodeManager's address (host and port: unique among NodeManagers of one host). */
  private static String nodeManagerHost(Configuration conf) {
    String address =
        conf.getTrimmed(YarnConfiguration.NM_ADDRESS, YarnConfiguration.DEFAULT_NM_ADDRESS);
    return address.replace(':', '-');
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    // the cache is per host, not per application
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    // pages outlive applications: the next job over the same input hits
  }

  @Override
  public ByteBuffer getMetaData() {
    return ByteBuffer.allocate(0);
  }

  /**
   * @return the running service, or null before start, after stop and when it failed to start
   */
  public CacheNode node() {
    return node;
  }

  /**
   * @return how many times the service failed to start in this NodeManager
   */
  public long startFailures() {
    return failures.startFailures();
  }

  /**
   * The cause a failed start of the NodeManager's service left beside a socket, for {@code dtap
   * doctor}.
   *
   * @param socket the configured socket path ({@code fs.dtap.cnode.socket})
   * @return the time and cause of the last failed start there, if it failed
   */
  public static Optional<String> lastStartFailure(String socket) {
    return ServiceFailures.lastStartFailure(socket);
  }
}
