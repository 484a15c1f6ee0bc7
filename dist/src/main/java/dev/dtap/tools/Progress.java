package dev.dtap.tools;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress of a long command by bytes: a bar redrawn in place on a terminal, or a plain line per
 * tenth of the work when the output is a file or a pipe (logs stay readable). Not thread-safe.
 */
final class Progress {
  private static final int BAR = 30;
  private final PrintStream out;
  private final boolean terminal;
  private final long total;
  private long done;
  private int lastTenth = -1;

  Progress(PrintStream out, boolean terminal, long total) {
    this.out = out;
    this.terminal = terminal;
    this.total = total;
  }

  /**
   * @return whether the standard output is a terminal
   */
  static boolean stdoutIsTerminal() {
    return System.console() != null;
  }

  /** Adds work done and redraws when it shows. */
  void advance(long bytes, String current) {
    done += bytes;
    int percent = total == 0 ? 100 : (int) Math.min(100, done * 100 / total);
    if (terminal) {
      int filled = percent * BAR / 100;
      out.print(
          String.format(
              Locale.ROOT,
              "\r[%s%s] %3d%% %s of %s  %s",
              repeat('#', filled),
              repeat('.', BAR - filled),
              percent,
              Report.bytes(done),
              Report.bytes(total),
              current.length() > 40 ? "..." + current.substring(current.length() - 37) : current));
      out.flush();
    } else if (percent / 10 != lastTenth) {
      lastTenth = percent / 10;
      out.println(
          String.format(
              Locale.ROOT, "%d%% %s of %s", percent, Report.bytes(done), Report.bytes(total)));
    }
  }

  /** Ends the bar's line on a terminal. */
  void finish() {
    if (terminal) {
      out.println();
    }
  }

  private static String repeat(char c, int n) {
    StringBuilder b = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      b.append(c);
    }
    return b.toString();
  }
}
