package dev.dtap.tools;

/**
 * {@code dtap cnode}: the per-host cache service. It is not part of this version; the command says
 * so and fails, so that a unit file or container built for it does not appear to run.
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
    return "run the per-host cache service in the foreground (not in this version)";
  }

  @Override
  public int run(Invocation in) {
    in.err()
        .println(
            "dtap cnode: the per-host cache service is not part of dtap "
                + DtapTool.version()
                + "; each task JVM caches on its own (see docs/caching.md)");
    return DtapTool.PROBLEM;
  }
}
