package dev.dtap.cache.cnode;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Runs the host's cache service in the foreground until the process is told to stop (SIGTERM,
 * Ctrl-C): the {@code dtap cnode} command, and what a systemd unit or a container runs.
 */
public final class CacheNodeMain {
  private CacheNodeMain() {}

  /**
   * Starts the service and waits for the process to be stopped.
   *
   * @param conf the service's configuration
   * @param out where the service says where it listens (one line, {@code dtap cnode: serving ...})
   * @throws IOException if the service cannot start (the message names the key at fault)
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public static void run(Configuration conf, PrintStream out)
      throws IOException, InterruptedException {
    CacheNode node = CacheNode.start(conf);
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              node.close();
              stopped.countDown();
            },
            "dtap-cnode-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    out.println(
        "dtap cnode: serving host "
            + node.host()
            + " on "
            + CnodeKeys.SOCKET.get(conf)
            + " and TCP port "
            + node.port());
    out.flush();
    stopped.await();
  }

  /**
   * Runs the service with the configuration files given, on top of Hadoop's defaults and the class
   * path's {@code core-site.xml}.
   *
   * @param args configuration files
   * @throws Exception if the service cannot start
   */
  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    for (String a : args) {
      conf.addResource(new Path(new File(a).getAbsolutePath()));
    }
    run(conf, System.out);
  }
}
