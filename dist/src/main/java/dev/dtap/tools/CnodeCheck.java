package dev.dtap.tools;

import dev.dtap.cache.cnode.CacheNodeAuxService;
import dev.dtap.cache.cnode.CnodeClient;
import dev.dtap.cache.cnode.CnodeKeys;
import dev.dtap.cache.cnode.CnodeSettings;
import dev.dtap.fs.config.InvalidConfigurationException;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * The doctor's look at the host's cache service: configured or not, its settings valid, and whether
 * it answers and accepts this host's secret. Stateless.
 */
final class CnodeCheck {
  private CnodeCheck() {}

  /** One row of the doctor's table: status and detail. */
  static String[] check(Configuration conf, Duration timeout) {
    CnodeSettings settings;
    try {
      settings = CnodeSettings.parse(conf);
    } catch (InvalidConfigurationException e) {
      return new String[] {"FAIL", e.getMessage()};
    }
    if (settings == null) {
      return new String[] {
        "SKIP",
        "no host cache service configured ("
            + CnodeKeys.SOCKET.name()
            + "): each JVM caches on its own"
      };
    }
    Configuration patient = new Configuration(conf);
    patient.set(CnodeKeys.CONNECT_TIMEOUT.name(), timeout.toMillis() + "ms");
    patient.set(CnodeKeys.REQUEST_TIMEOUT.name(), timeout.toMillis() + "ms");
    try (CnodeClient c = CnodeClient.connect(CnodeSettings.parse(patient))) {
      String pages = "";
      for (String line : c.stats().split("\n")) {
        if (line.startsWith("cnode_pages=")) {
          pages = ", " + line.substring("cnode_pages=".length()) + " pages cached";
        }
      }
      return new String[] {
        "OK", "host " + c.serviceHost() + " answers on " + settings.socket() + pages
      };
    } catch (IOException e) {
      Optional<String> failedStart =
          CacheNodeAuxService.lastStartFailure(settings.socket().toString());
      if (failedStart.isPresent()) {
        return new String[] {
          "FAIL",
          "the NodeManager's dtap_cnode auxiliary service did not start on "
              + settings.socket()
              + " ("
              + failedStart.get()
              + "); the NodeManager serves containers without it and tasks cache in their own"
              + " JVMs. Fix the cause and restart the NodeManager"
        };
      }
      return new String[] {
        "FAIL",
        "the host cache service on "
            + settings.socket()
            + " "
            + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
            + ": is it running on this host (dtap cnode, or the NodeManager's dtap_cnode"
            + " auxiliary service), with the same "
            + CnodeKeys.SECRET.name()
            + "? Reads go to the backend meanwhile"
      };
    }
  }
}
