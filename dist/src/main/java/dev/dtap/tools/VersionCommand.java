package dev.dtap.tools;

import org.apache.hadoop.util.VersionInfo;

/** {@code dtap version}: this build and the Hadoop it runs on. */
final class VersionCommand implements Command {
  @Override
  public String name() {
    return "version";
  }

  @Override
  public String arguments() {
    return "";
  }

  @Override
  public String summary() {
    return "print the dtap version and the Hadoop version it runs on";
  }

  @Override
  public int run(Invocation in) throws UsageException {
    if (!in.positional().isEmpty()) {
      throw new UsageException("takes no arguments");
    }
    in.out().println("dtap " + DtapTool.version() + " on Hadoop " + VersionInfo.getVersion());
    return DtapTool.OK;
  }
}
