package dev.dtap.tools;

import dev.dtap.commit.CommitRecovery;
import dev.dtap.fs.config.DataTapConfig;
import dev.dtap.fs.config.TapConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The {@code dtap} command: {@code hadoop jar dtap-hadoop-VERSION.jar <command>} or the {@code
 * bin/dtap} launcher. Hadoop's generic options ({@code -conf}, {@code -D}) apply.
 *
 * <pre>
 *   dtap taps            list the configured taps (no secrets)
 *   dtap check TAP       open a tap, stat its root, list a few entries
 *   dtap committer recover [--dry-run] DEST
 *                        finish or abort the jobs crashed drivers left in DEST
 *   dtap version         print the dtap version
 * </pre>
 */
public final class DtapTool extends Configured implements Tool {
  private final PrintStream out;
  private final PrintStream err;

  /** A tool printing to the standard streams. */
  public DtapTool() {
    this(System.out, System.err);
  }

  DtapTool(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length == 0) {
      return usage();
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    switch (args[0]) {
      case "taps":
        return taps();
      case "check":
        return rest.length == 1 ? check(rest[0]) : usage();
      case "committer":
        return rest.length >= 2 && rest[0].equals("recover") ? recover(Arrays.copyOfRange(rest, 1, rest.length)) : usage();
      case "version":
        out.println("dtap " + version());
        return 0;
      default:
        err.println("dtap: unknown command '" + args[0] + "'");
        return usage();
    }
  }

  private int usage() {
    err.println("Usage: dtap <command>");
    err.println("  taps          list the configured taps");
    err.println("  check <tap>   open a tap, stat its root and list a few entries");
    err.println("  committer recover [--dry-run] <dtap://tap/dest>");
    err.println("                commit forward the jobs whose commit had begun, abort the others;");
    err.println("                only for jobs that are no longer running");
    err.println("  version       print the dtap version");
    return 2;
  }

  private int taps() throws IOException {
    DataTapConfig config = DataTapConfig.parse(getConf(), Collections.emptyList());
    if (config.tapNames().isEmpty()) {
      out.println("No taps configured: add fs.dtap.tap.<name>.uri to core-site.xml");
      return 1;
    }
    out.printf("%-20s %-8s %-6s %-8s %s%n", "TAP", "MODE", "CACHE", "LOCALITY", "ROOT");
    for (TapConfig tap : config.taps().values()) {
      out.printf(
          "%-20s %-8s %-6s %-8s %s%s%n",
          tap.name(),
          tap.readOnly() ? "ro" : "rw",
          tap.cacheEnabled() ? "on" : "off",
          tap.localityEnabled() ? "on" : "off",
          tap.root(),
          tap.backendOverrides().isEmpty()
              ? ""
              : "  (own settings: " + tap.backendOverrides().keySet() + ")");
    }
    for (java.util.Map.Entry<String, dev.dtap.fs.config.InvalidConfigurationException> e :
        config.invalidTaps().entrySet()) {
      out.printf("%-20s %-8s %s%n", e.getKey(), "INVALID", e.getValue().getMessage());
    }
    return config.invalidTaps().isEmpty() ? 0 : 1;
  }

  private int check(String tap) {
    Configuration conf = new Configuration(getConf());
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    URI uri = URI.create("dtap://" + tap + "/");
    try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
      FileStatus root = fs.getFileStatus(new Path(uri));
      out.println("tap " + tap + ": root " + root.getPath() + " is a directory: " + root.isDirectory());
      FileStatus[] entries = fs.listStatus(new Path(uri));
      out.println("entries: " + entries.length);
      for (int i = 0; i < Math.min(entries.length, 10); i++) {
        FileStatus e = entries[i];
        out.printf("  %s %12d %s%n", e.isDirectory() ? "d" : "-", e.getLen(), e.getPath());
      }
      return 0;
    } catch (IOException | RuntimeException e) {
      err.println("tap " + tap + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
      return 1;
    }
  }

  private int recover(String[] args) {
    boolean dryRun = args.length == 2 && args[0].equals("--dry-run");
    if (args.length != 1 && !dryRun) {
      return usage();
    }
    Path dest = new Path(args[args.length - 1]);
    try {
      List<CommitRecovery.JobReport> reports = CommitRecovery.recover(dest, getConf(), dryRun);
      if (reports.isEmpty()) {
        out.println("No unfinished jobs in " + dest);
      }
      for (CommitRecovery.JobReport r : reports) {
        out.println(r);
      }
      return 0;
    } catch (IOException | RuntimeException e) {
      err.println("recover " + dest + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
      return 1;
    }
  }

  static String version() {
    String v = DtapTool.class.getPackage().getImplementationVersion();
    return v == null ? "(development build)" : v;
  }

  /**
   * Entry point.
   *
   * @param args command and arguments
   * @throws Exception on unexpected failure
   */
  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new DtapTool(), args));
  }
}
