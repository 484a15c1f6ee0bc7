package dev.dtap.locality;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * One known set of cluster hosts and its hash ring. Host names are kept exactly as the membership
 * source spells them (for YARN: as the ResourceManager names the NodeManagers), because schedulers
 * match locality hints by exact name; they are compared case-insensitively, and a short name and
 * its fully qualified form count as one host.
 *
 * <p>Immutable and thread-safe.
 */
final class Membership {
  /** The transfer port Hadoop's default locations name; consumers use the host part. */
  private static final String NAME_PORT = ":9866";

  private final List<String> hosts;
  private final String[] hostArray;
  private final String[] names;
  private final HashRing ring;
  private final Map<String, String> aliases;
  private final String source;

  private Membership(List<String> hosts, int vnodes, String source) {
    this.hosts = Collections.unmodifiableList(hosts);
    this.hostArray = hosts.toArray(new String[0]);
    this.source = source;
    List<String> canonical = new ArrayList<>(hosts.size());
    for (String h : hosts) {
      canonical.add(h.toLowerCase(Locale.ROOT));
    }
    this.ring = new HashRing(canonical, vnodes);
    this.names = new String[hosts.size()];
    for (int i = 0; i < hosts.size(); i++) {
      names[i] = hosts.get(i) + NAME_PORT;
    }
    this.aliases = aliases(hosts);
  }

  /**
   * Builds a membership from raw names: trimmed, trailing dots dropped, duplicates (including a
   * short name beside its fully qualified form) merged, sorted.
   *
   * @param raw host names as the source gave them
   * @param vnodes ring points per host
   * @param source where they came from, for logs
   * @return the membership
   */
  static Membership of(Collection<String> raw, int vnodes, String source) {
    Map<String, String> byLower = new HashMap<>();
    for (String r : raw) {
      String h = clean(r);
      if (!h.isEmpty()) {
        byLower.putIfAbsent(h.toLowerCase(Locale.ROOT), h);
      }
    }
    // a short name that is the first label of a listed FQDN is the same host
    TreeSet<String> keep = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    for (Map.Entry<String, String> e : byLower.entrySet()) {
      String lower = e.getKey();
      boolean shortOfAnother = false;
      if (lower.indexOf('.') < 0 && !isAddress(lower)) {
        for (String other : byLower.keySet()) {
          if (other.startsWith(lower + ".")) {
            shortOfAnother = true;
            break;
          }
        }
      }
      if (!shortOfAnother) {
        keep.add(e.getValue());
      }
    }
    return new Membership(new ArrayList<>(keep), vnodes, source);
  }

  static String clean(String raw) {
    String h = raw == null ? "" : raw.trim();
    while (h.endsWith(".")) {
      h = h.substring(0, h.length() - 1);
    }
    return h;
  }

  private static boolean isAddress(String h) {
    return h.indexOf(':') >= 0 || h.matches("\\d+(\\.\\d+){3}");
  }

  private static Map<String, String> aliases(List<String> hosts) {
    Map<String, String> map = new HashMap<>();
    Map<String, Integer> shortCount = new HashMap<>();
    for (String h : hosts) {
      String lower = h.toLowerCase(Locale.ROOT);
      map.put(lower, h);
      int dot = lower.indexOf('.');
      if (dot > 0 && !isAddress(lower)) {
        shortCount.merge(lower.substring(0, dot), 1, Integer::sum);
      }
    }
    for (String h : hosts) {
      String lower = h.toLowerCase(Locale.ROOT);
      int dot = lower.indexOf('.');
      if (dot > 0 && !isAddress(lower)) {
        String shortName = lower.substring(0, dot);
        if (shortCount.get(shortName) == 1) {
          map.putIfAbsent(shortName, h);
        }
      }
    }
    return map;
  }

  /**
   * The member a name refers to: the same name in any case, a unique short name of a member's fully
   * qualified name, or a member's fully qualified name for a short member name.
   *
   * @param anyForm a host name as some other component spells it
   * @return the member's name as the source spells it, or null when it is not a member
   */
  String normalise(String anyForm) {
    String lower = clean(anyForm).toLowerCase(Locale.ROOT);
    String m = aliases.get(lower);
    if (m == null && lower.indexOf('.') > 0 && !isAddress(lower)) {
      m = aliases.get(lower.substring(0, lower.indexOf('.')));
    }
    return m;
  }

  List<String> hosts() {
    return hosts;
  }

  HashRing ring() {
    return ring;
  }

  String host(int i) {
    return hostArray[i];
  }

  String name(int i) {
    return names[i];
  }

  int size() {
    return hosts.size();
  }

  String source() {
    return source;
  }

  @Override
  public String toString() {
    return hosts.size() + " hosts from " + source;
  }
}
