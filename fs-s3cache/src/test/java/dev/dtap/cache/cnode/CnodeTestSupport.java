package dev.dtap.cache.cnode;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/** A service in this JVM over a fresh directory, and the configuration its clients need. */
final class CnodeTestSupport {
  static final String SECRET = "dtapCanary7Q-cnode-secret-0123456789";

  final Path dir;
  final Configuration conf;

  CnodeTestSupport(String name) throws IOException {
    dir = Files.createTempDirectory(new File(System.getProperty("java.io.tmpdir")).toPath(), name);
    conf = new Configuration(false);
    conf.set(CnodeKeys.SOCKET.name(), dir.resolve("cnode.sock").toString());
    conf.set(CnodeKeys.SECRET.name(), SECRET);
    conf.set(CnodeKeys.PORT.name(), "0");
    conf.set(CnodeKeys.BIND_HOST.name(), "127.0.0.1");
    conf.set(CnodeKeys.HOST.name(), name + "-host");
    conf.set("fs.dtap.cache.dirs", dir.resolve("pages").toString());
    conf.set("fs.dtap.cache.max.size", "64m");
    // generous deadlines: a loaded test machine must not turn a hit into a fallback
    conf.set(CnodeKeys.CONNECT_TIMEOUT.name(), "10s");
    conf.set(CnodeKeys.REQUEST_TIMEOUT.name(), "10s");
  }

  CacheNode start() throws IOException {
    return CacheNode.start(conf);
  }

  CnodeClient client() throws IOException {
    return CnodeClient.connect(CnodeSettings.parse(conf));
  }

  CnodeClient client(Configuration overrides) throws IOException {
    Configuration c = new Configuration(conf);
    for (java.util.Map.Entry<String, String> e : overrides) {
      c.set(e.getKey(), e.getValue());
    }
    return CnodeClient.connect(CnodeSettings.parse(c));
  }
}
