package dev.dtap.locality;

import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.hadoop.fs.BlockLocation;

/**
 * One {@link BlockLocation} per ring point, built on first use, from which each answer is copied.
 * Hadoop's {@code BlockLocation} constructors and setters intern every host and name string, which
 * costs more than the whole placement; its copy constructor does not. The copies share the host and
 * name arrays of their template, as every caller only reads them.
 *
 * <p>Thread-safe. Memory grows with the points actually used: about 120 bytes each, at most one per
 * ring point, released when the membership changes.
 */
final class LocationTemplates {
  private final Membership membership;
  private final int replicas;
  private final AtomicReferenceArray<BlockLocation> templates;

  LocationTemplates(Membership membership, int replicas) {
    this.membership = membership;
    this.replicas = replicas;
    this.templates = new AtomicReferenceArray<>(membership.ring().points());
  }

  Membership membership() {
    return membership;
  }

  /**
   * A new location for one block.
   *
   * @param key the block's placement key
   * @param offset the block's offset in the file
   * @param length the block's length
   * @return a location naming the block's hosts
   */
  BlockLocation locate(long key, long offset, long length) {
    int point = membership.ring().point(key);
    BlockLocation template = templates.get(point);
    if (template == null) {
      template = build(point);
      templates.lazySet(point, template);
    }
    BlockLocation copy = new BlockLocation(template);
    copy.setOffset(offset);
    copy.setLength(length);
    return copy;
  }

  private BlockLocation build(int point) {
    int[] owners = new int[replicas];
    int n = membership.ring().walk(point, owners);
    String[] hosts = new String[n];
    String[] names = new String[n];
    for (int i = 0; i < n; i++) {
      hosts[i] = membership.host(owners[i]);
      names[i] = membership.name(owners[i]);
    }
    return new BlockLocation(names, hosts, 0, 0);
  }
}
