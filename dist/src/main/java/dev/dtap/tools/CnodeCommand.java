package dev.dtap.tools;

import dev.dtap.cache.cnode.CacheNodeMain;

/**
 * {@code dtap cnode}: the host's cache service in the foreground, until SIGTERM or Ctrl-C. For a
 * systemd unit or a container; as a YARN auxiliary service it needs no command (see
 * docs/operations.md).
 */
final class CnodeCommand implements Command {
  @Override
  public String name() {
    return "cnode";
  }

  @Override
  public String arguments() {
    return "";
  }

  @Override
  public String summary() {
    return "run the host's cache service in the foreground";
  }

  @Override
  public String details() {
    return "Listens on fs.dtap.cnode.socket (for the host's task JVMs) and fs.dtap.cnode.port"
        + " (for peers), keeps pages in fs.dtap.cache.dirs within fs.dtap.cache.max.size, and"
        + " needs the cluster secret fs.dtap.cnode.secret. Stops on SIGTERM.";
  }

  @Override
  public int run(Invocation in) throws Exception {
    if (!in.positional().isEmpty()) {
      throw new UsageException("cnode takes no arguments");
    }
    CacheNodeMain.run(in.conf(), in.out());
    return DtapTool.OK;
  }
}
