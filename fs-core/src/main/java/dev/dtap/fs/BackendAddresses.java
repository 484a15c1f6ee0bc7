package dev.dtap.fs;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * The servers behind a tap, as {@code host} or {@code host:port}, so that errors naming them can be
 * rewritten: the NameNode of an HDFS root (every NameNode of an HA nameservice), the endpoint an S3
 * bucket is reached through. Read from the tap's backend configuration with the backends' own keys
 * (Hadoop's and S3A's, not dtap's). Stateless.
 */
final class BackendAddresses {
  /**
   * Schemes that name the same S3 bucket: S3A's own messages say {@code s3a://}, while the AWS
   * analytics stream S3A 3.5 reads through names objects {@code s3://bucket/key}.
   */
  static final List<String> S3_SCHEMES = Arrays.asList("s3a", "s3n", "s3");

  /** Schemes whose authority is a NameNode or a nameservice. */
  static final List<String> HDFS_SCHEMES = Arrays.asList("hdfs", "webhdfs", "swebhdfs");

  /** Where a NameNode of nameservice {@code %1$s}, id {@code %2$s}, listens (hdfs-default.xml). */
  private static final List<String> NAMENODE_KEYS =
      Arrays.asList(
          "dfs.namenode.rpc-address.%s.%s",
          "dfs.namenode.http-address.%s.%s", "dfs.namenode.https-address.%s.%s");

  private BackendAddresses() {}

  /**
   * Reads the servers behind a root. Never fails: a setting it cannot read (a broken {@code ${}}
   * reference, an address no URI can hold) is skipped, left for the backend to report, and the
   * other settings are still read.
   *
   * @param root the tap's backend root
   * @param conf the tap's backend configuration
   * @return the addresses, without duplicates; empty for a local root or one whose servers the
   *     configuration does not name
   */
  static List<String> of(URI root, Configuration conf) {
    String scheme = root.getScheme() == null ? "" : root.getScheme().toLowerCase(Locale.ROOT);
    String authority = root.getAuthority();
    if (authority == null || authority.isEmpty()) {
      return Collections.emptyList();
    }
    Set<String> out = new LinkedHashSet<>();
    if (S3_SCHEMES.contains(scheme)) {
      // S3A's per-bucket key overrides the global one (S3A copies it over at initialize)
      String bucketEndpoint = read(conf, "fs.s3a.bucket." + authority + ".endpoint");
      addEndpoint(out, bucketEndpoint.isEmpty() ? read(conf, "fs.s3a.endpoint") : bucketEndpoint);
    } else if (HDFS_SCHEMES.contains(scheme)) {
      addEndpoint(out, authority);
      String nameservice = root.getHost() == null ? authority : root.getHost();
      // a federated nameservice without HA names its one NameNode without an id
      addEndpoint(out, read(conf, "dfs.namenode.rpc-address." + nameservice));
      for (String id : read(conf, "dfs.ha.namenodes." + nameservice).split(",")) {
        if (!id.trim().isEmpty()) {
          for (String key : NAMENODE_KEYS) {
            addEndpoint(out, read(conf, String.format(key, nameservice, id.trim())));
          }
        }
      }
    }
    return new ArrayList<>(out);
  }

  /** One key's trimmed value, "" when unset or unreadable (a broken {@code ${}} reference). */
  private static String read(Configuration conf, String key) {
    try {
      return conf.getTrimmed(key, "");
    } catch (RuntimeException e) {
      return ""; // the backend reports the setting itself if it needs it
    }
  }

  private static void addEndpoint(Set<String> out, String endpoint) {
    if (endpoint.isEmpty()) {
      return;
    }
    try {
      URI uri = new URI(endpoint.contains("://") ? endpoint : "//" + endpoint);
      String host = uri.getHost();
      if (host == null && uri.getRawAuthority() != null) {
        // a name URI does not take as a host (minio_1:9000): keep it as written, without userinfo
        String raw = uri.getRawAuthority();
        host = raw.substring(raw.lastIndexOf('@') + 1);
        out.add(host);
      } else if (host != null && !host.isEmpty()) {
        out.add(uri.getPort() < 0 ? host : host + ":" + uri.getPort());
      }
    } catch (URISyntaxException e) {
      // not an address the backend could reach either; nothing a message could name
    }
  }
}
