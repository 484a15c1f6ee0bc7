package dev.dtap.cache.cnode;

import dev.dtap.cache.disk.DiskIo;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;

/** Cache services for tests in other packages: over a fault-injecting disk. */
public final class CacheNodes {
  private CacheNodes() {}

  /**
   * Starts a service whose disk is the given file operations.
   *
   * @param conf the service's configuration
   * @param io the disk's file operations, e.g. a held disk
   * @return the running service
   * @throws IOException as {@link CacheNode#start(Configuration)}
   */
  public static CacheNode start(Configuration conf, DiskIo io) throws IOException {
    return CacheNode.start(conf, io);
  }
}
