package dev.dtap.tools;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The {@code dtap} command: {@code hadoop jar dtap-hadoop-VERSION.jar <command>} or the
 * repository's {@code ./dtap} launcher. Hadoop's generic options ({@code -conf}, {@code -D}) apply.
 * Exit codes: 0 ok, 1 a problem found, 2 a usage error. Every command takes {@code --help}.
 *
 * <p>Not thread-safe: one instance runs one command at a time.
 */
public final class DtapTool extends Configured implements Tool {
  /** Exit code of a run that found nothing wrong. */
  static final int OK = 0;

  /** Exit code of a run that found a problem (the output says which). */
  static final int PROBLEM = 1;

  /** Exit code of wrong arguments. */
  static final int USAGE = 2;

  private final PrintStream out;
  private final PrintStream err;
  private final Map<String, Command> commands = new LinkedHashMap<>();

  /** A tool printing to the standard streams. */
  public DtapTool() {
    this(System.out, System.err);
  }

  DtapTool(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
    for (Command c :
        Arrays.asList(
            new TapsCommand(),
            new CheckCommand(),
            new DoctorCommand(),
            new CacheCommands.Stats(),
            new CacheCommands.Ls(),
            new CacheCommands.Evict(),
            new CacheCommands.Warm(),
            new LocalityExplainCommand(),
            new CommitterCommands.Pending(),
            new CommitterCommands.Abort(),
            new CommitterCommands.Recover(),
            new BenchReadCommand(),
            new CnodeCommand(),
            new VersionCommand())) {
      commands.put(c.name(), c);
    }
  }

  @Override
  public int run(String[] args) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("help")) {
      printCommands(args.length == 0 ? err : out, "");
      return args.length == 0 ? USAGE : OK;
    }
    Command command = null;
    int words = 0;
    if (args.length >= 2) {
      command = commands.get(args[0] + " " + args[1]);
      words = 2;
    }
    if (command == null) {
      command = commands.get(args[0]);
      words = 1;
    }
    if (command == null) {
      String group = args[0] + " ";
      boolean isGroup = commands.keySet().stream().anyMatch(n -> n.startsWith(group));
      boolean help = args.length >= 2 && args[1].equals("--help");
      if (isGroup && help) {
        printCommands(out, group);
        return OK;
      }
      err.println(
          isGroup
              ? "dtap "
                  + args[0]
                  + ": "
                  + (args.length < 2 ? "which one?" : "unknown command '" + args[1] + "'")
              : "dtap: unknown command '" + args[0] + "'");
      printCommands(err, isGroup ? group : "");
      return USAGE;
    }
    String[] rest = Arrays.copyOfRange(args, words, args.length);
    try {
      Invocation in = new Invocation(command, rest, getConf(), out, err);
      if (in.has("--help")) {
        out.print(help(command));
        return OK;
      }
      return command.run(in);
    } catch (UsageException e) {
      err.println("dtap " + command.name() + ": " + e.getMessage());
      err.print(help(command));
      return USAGE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("dtap " + command.name() + ": interrupted");
      return PROBLEM;
    } catch (Exception e) {
      err.println("dtap " + command.name() + ": " + describe(e));
      return PROBLEM;
    }
  }

  /** An exception for people: its type and message, never a stack trace. */
  static String describe(Throwable e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : ": " + m.split("\n", 2)[0]);
  }

  private static String help(Command c) {
    StringBuilder b = new StringBuilder();
    b.append("Usage: dtap ").append(c.name());
    if (!c.arguments().isEmpty()) {
      b.append(' ').append(c.arguments());
    }
    b.append("\n  ").append(c.summary()).append('\n');
    if (!c.details().isEmpty()) {
      for (String line : c.details().split("\n")) {
        b.append("  ").append(line).append('\n');
      }
    }
    b.append("Exit codes: 0 ok, 1 a problem found, 2 a usage error.\n");
    return b.toString();
  }

  private void printCommands(PrintStream to, String group) {
    to.println("Usage: dtap [-conf <file>] [-D <key=value>] <command> [--help] ...");
    List<String[]> lines = new ArrayList<>();
    int width = 0;
    for (Command c : commands.values()) {
      if (c.name().startsWith(group)) {
        String synopsis = c.name() + (c.arguments().isEmpty() ? "" : " " + c.arguments());
        lines.add(new String[] {synopsis, c.summary()});
        width = Math.max(width, synopsis.length());
      }
    }
    for (String[] l : lines) {
      to.printf("  %-" + width + "s  %s%n", l[0], l[1]);
    }
    to.println("Exit codes: 0 ok, 1 a problem found, 2 a usage error.");
  }

  static String version() {
    String v = DtapTool.class.getPackage().getImplementationVersion();
    return v == null ? "(development build)" : v;
  }

  /**
   * Entry point.
   *
   * @param args command and arguments
   * @throws Exception if Hadoop's generic options cannot be parsed
   */
  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new DtapTool(), args));
  }
}
