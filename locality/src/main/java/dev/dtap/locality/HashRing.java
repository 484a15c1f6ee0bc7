package dev.dtap.locality;

import java.util.Arrays;
import java.util.List;

/**
 * A consistent-hash ring over hosts with a fixed number of points per host. Placement depends only
 * on the set of hosts, never on the order or history in which they were learned, so every JVM that
 * knows the same hosts computes the same placement. When a host joins or leaves, only the keys on
 * its arcs move: about 1/N of them.
 *
 * <p>Immutable and thread-safe; lookups allocate nothing.
 */
final class HashRing {
  private final String[] hosts;
  private final long[] points;
  private final int[] owners;

  /**
   * @param hosts distinct canonical host names
   * @param vnodes points per host
   */
  HashRing(List<String> hosts, int vnodes) {
    this.hosts = hosts.toArray(new String[0]);
    int n = this.hosts.length * vnodes;
    long[] packedPoints = new long[n];
    int[] packedOwners = new int[n];
    // sort points with their owners: sort an index array by point
    Integer[] order = new Integer[n];
    long[] raw = new long[n];
    int k = 0;
    for (int h = 0; h < this.hosts.length; h++) {
      for (int v = 0; v < vnodes; v++) {
        raw[k] = PlacementHash.point(this.hosts[h], v);
        order[k] = k;
        k++;
      }
    }
    // ties (astronomically rare) break by host name, so the ring is still order-independent
    Arrays.sort(
        order,
        (a, b) -> {
          int c = Long.compare(raw[a], raw[b]);
          return c != 0 ? c : this.hosts[a / vnodes].compareTo(this.hosts[b / vnodes]);
        });
    for (int i = 0; i < n; i++) {
      packedPoints[i] = raw[order[i]];
      packedOwners[i] = order[i] / vnodes;
    }
    this.points = packedPoints;
    this.owners = packedOwners;
  }

  /**
   * @return the number of hosts
   */
  int size() {
    return hosts.length;
  }

  /**
   * @return host {@code i}
   */
  String host(int i) {
    return hosts[i];
  }

  /**
   * The ring point a key falls on: the first point at or clockwise after it.
   *
   * @param key the key's position
   * @return the point's index, or -1 on an empty ring
   */
  int point(long key) {
    int n = points.length;
    if (n == 0) {
      return -1;
    }
    int i = Arrays.binarySearch(points, key);
    if (i < 0) {
      i = -i - 1;
    }
    return i == n ? 0 : i;
  }

  /**
   * @return the number of points
   */
  int points() {
    return points.length;
  }

  /**
   * The hosts of a key: the owners of the next points clockwise, distinct.
   *
   * @param key the key's position
   * @param out receives host indexes; its length is the number wanted
   * @return how many were found: {@code min(out.length, size())}
   */
  int locate(long key, int[] out) {
    int i = point(key);
    return i < 0 ? 0 : walk(i, out);
  }

  /**
   * The distinct owners of the points from {@code start} clockwise.
   *
   * @param start a point index
   * @param out receives host indexes; its length is the number wanted
   * @return how many were found: {@code min(out.length, size())}
   */
  int walk(int start, int[] out) {
    int n = points.length;
    int wanted = Math.min(out.length, hosts.length);
    int found = 0;
    for (int step = 0; step < n && found < wanted; step++) {
      int owner = owners[(start + step) % n];
      boolean seen = false;
      for (int j = 0; j < found; j++) {
        if (out[j] == owner) {
          seen = true;
          break;
        }
      }
      if (!seen) {
        out[found++] = owner;
      }
    }
    return found;
  }
}
