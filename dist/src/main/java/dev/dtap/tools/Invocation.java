package dev.dtap.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.GenericOptionsParser;

/**
 * One run of a command: its flags, options and positional arguments, and where to print. Hadoop's
 * generic options before the command are already applied to the configuration; a {@code -D
 * key=value} among the command's arguments is applied here, by Hadoop's own parser, as it would be
 * before the command. Other generic options there are usage errors that say where they go. Not
 * thread-safe.
 */
final class Invocation {
  /** Hadoop's generic options other than {@code -D}, which take a value and come first. */
  private static final Set<String> GENERIC_OPTIONS =
      Set.of("-conf", "-fs", "-jt", "-files", "-libjars", "-archives", "-tokenCacheFile");

  private final Configuration conf;
  private final PrintStream out;
  private final PrintStream err;
  private final Set<String> flags = new HashSet<>();
  private final Map<String, String> options = new HashMap<>();
  private final List<String> positional = new ArrayList<>();

  /**
   * Parses a command's arguments.
   *
   * @throws UsageException on a flag or option the command does not know, or an option without a
   *     value
   */
  Invocation(Command command, String[] args, Configuration conf, PrintStream out, PrintStream err)
      throws UsageException {
    this.conf = conf;
    this.out = out;
    this.err = err;
    List<String> settings = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("-D")) {
        if (i + 1 >= args.length || args[i + 1].indexOf('=') <= 0) {
          throw new UsageException("-D needs key=value");
        }
        settings.add(a);
        settings.add(args[++i]);
        continue;
      }
      if (a.startsWith("-D")) {
        if (a.indexOf('=') <= 2) {
          throw new UsageException("-D needs key=value, got " + a);
        }
        settings.add(a);
        continue;
      }
      if (GENERIC_OPTIONS.contains(a)) {
        throw new UsageException(
            a
                + " is one of Hadoop's generic options: put it before the command, as in dtap "
                + a
                + " <value> "
                + command.name());
      }
      if (!a.startsWith("--") || a.equals("--")) {
        positional.add(a);
        continue;
      }
      int eq = a.indexOf('=');
      String name = eq < 0 ? a : a.substring(0, eq);
      if (command.options().contains(name)) {
        if (eq >= 0) {
          options.put(name, a.substring(eq + 1));
        } else if (i + 1 < args.length) {
          options.put(name, args[++i]);
        } else {
          throw new UsageException(name + " needs a value");
        }
      } else if (eq < 0 && (command.flags().contains(a) || a.equals("--help"))) {
        flags.add(a);
      } else {
        throw new UsageException("unknown option " + name);
      }
    }
    if (!settings.isEmpty()) {
      apply(conf, settings);
    }
  }

  /** Applies {@code -D} settings as Hadoop's tools apply those before the command. */
  private static void apply(Configuration conf, List<String> settings) throws UsageException {
    try {
      new GenericOptionsParser(conf, settings.toArray(new String[0]));
    } catch (IOException e) {
      throw new UsageException("cannot apply " + String.join(" ", settings) + ": " + e);
    }
  }

  Configuration conf() {
    return conf;
  }

  PrintStream out() {
    return out;
  }

  PrintStream err() {
    return err;
  }

  boolean has(String flag) {
    return flags.contains(flag);
  }

  boolean json() {
    return flags.contains("--json");
  }

  List<String> positional() {
    return Collections.unmodifiableList(positional);
  }

  /**
   * The one positional argument the command needs.
   *
   * @param what what it is, for the message
   * @throws UsageException if there is not exactly one
   */
  String single(String what) throws UsageException {
    if (positional.size() != 1) {
      throw new UsageException(
          "expected one " + what + ", got " + positional.size() + " arguments");
    }
    return positional.get(0);
  }

  /**
   * A whole number of seconds given with an option.
   *
   * @throws UsageException if it is not a positive integer
   */
  int seconds(String option, int defaultValue) throws UsageException {
    String v = options.get(option);
    if (v == null) {
      return defaultValue;
    }
    try {
      int s = Integer.parseInt(v.trim());
      if (s > 0) {
        return s;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(option + " expects a positive number of seconds, got '" + v + "'");
  }
}
