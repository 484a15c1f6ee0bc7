package dev.dtap.locality;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * The RUNNING NodeManagers the ResourceManager knows, through {@link YarnClient}, which follows the
 * ResourceManager HA settings and the cluster's security. Decommissioning, unhealthy, lost and
 * shut-down nodes are not RUNNING and so are left out. Host names are the NodeIds' hosts, exactly
 * as the scheduler matches them.
 */
final class YarnNodes implements MembershipProvider {
  private final Configuration conf;
  private YarnClient client;

  YarnNodes(Configuration site, Duration timeout) {
    YarnConfiguration c = new YarnConfiguration(site);
    // One read of the node list ends within the timeout, whether the ResourceManager is down
    // (refused or unreachable) or slow (accepts and does not answer): the next refresh tries again,
    // and no thread stays blocked for YARN's default 15 minutes of reconnecting.
    long wait = timeout.toMillis();
    int waitInt = (int) Math.min(Integer.MAX_VALUE, wait);
    c.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, wait);
    c.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, Math.min(1000L, wait));
    c.setInt(CommonConfigurationKeys.IPC_CLIENT_CONNECT_TIMEOUT_KEY, waitInt);
    c.setInt(CommonConfigurationKeys.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    c.setInt(CommonConfigurationKeys.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY, 0);
    c.setInt(CommonConfigurationKeys.IPC_CLIENT_RPC_TIMEOUT_KEY, waitInt);
    this.conf = c;
  }

  @Override
  public Collection<String> hosts() throws IOException {
    if (client == null) {
      YarnClient c = YarnClient.createYarnClient();
      c.init(conf);
      c.start();
      client = c;
    }
    try {
      List<String> hosts = new ArrayList<>();
      for (NodeReport r : client.getNodeReports(NodeState.RUNNING)) {
        hosts.add(r.getNodeId().getHost());
      }
      return hosts;
    } catch (YarnException e) {
      throw new IOException("ResourceManager refused the node report: " + e.getMessage(), e);
    }
  }

  @Override
  public String describe() {
    return "ResourceManager "
        + conf.get(YarnConfiguration.RM_ADDRESS, YarnConfiguration.DEFAULT_RM_ADDRESS);
  }

  @Override
  public void close() throws IOException {
    if (client != null) {
      client.stop();
      client = null;
    }
  }
}
