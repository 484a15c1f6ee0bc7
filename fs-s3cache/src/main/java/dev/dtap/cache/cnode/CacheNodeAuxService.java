package dev.dtap.cache.cnode;

import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
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
 */
public final class CacheNodeAuxService extends AuxiliaryService {
  private CacheNode node;

  public CacheNodeAuxService() {
    super("dtap_cnode");
  }

  @Override
  protected void serviceStart() throws Exception {
    Configuration conf = getConfig();
    node = CacheNode.start(conf);
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (node != null) {
      node.close();
      node = null;
    }
    super.serviceStop();
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
   * @return the running service, or null before start and after stop
   */
  public CacheNode node() {
    return node;
  }
}
