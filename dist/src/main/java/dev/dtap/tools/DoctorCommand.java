package dev.dtap.tools;

import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.fs.config.DataTapConfig;
import dev.dtap.fs.config.DataTapKeys;
import dev.dtap.fs.config.InvalidConfigurationException;
import dev.dtap.fs.config.TapConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.VersionInfo;

/**
 * {@code dtap doctor}: checks every tap independently, in parallel and each within a time limit,
 * and prints one table of what to fix.
 */
final class DoctorCommand implements Command {
  @Override
  public String name() {
    return "doctor";
  }

  @Override
  public String arguments() {
    return "[--json] [--timeout <seconds>] [tap ...]";
  }

  @Override
  public String summary() {
    return "check every tap: settings, class path, backend, credentials, cache directories,"
        + " locality; report obsolete keys";
  }

  @Override
  public Set<String> flags() {
    return Collections.singleton("--json");
  }

  @Override
  public Set<String> options() {
    return Collections.singleton("--timeout");
  }

  @Override
  public String details() {
    return "Checks all taps, or those named. Each tap is checked on its own within --timeout\n"
        + "seconds (default 60), so a hanging or broken tap never hides the others. Reads only:\n"
        + "nothing is written to any backend. Exit code 1 when any check fails.";
  }

  @Override
  public int run(Invocation in) throws Exception {
    Duration timeout = Duration.ofSeconds(in.seconds("--timeout", 60));
    DataTapConfig config = Taps.config(in.conf());
    List<String> names = new ArrayList<>(in.positional());
    if (names.isEmpty()) {
      names.addAll(config.tapNames());
    }
    Report report = new Report();
    Report.Table table = report.table("checks", "tap", "check", "status", "detail");
    table.row("-", "hadoop", "OK", VersionInfo.getVersion());
    String[] cnode =
        CnodeCheck.check(in.conf(), Duration.ofSeconds(Math.min(10, timeout.getSeconds())));
    table.row("-", "cnode", cnode[0], cnode[1]);
    boolean failed = cnode[0].equals("FAIL");
    String obsolete = obsoleteKeys(in.conf());
    if (!obsolete.isEmpty()) {
      table.row("-", "obsolete keys", "WARN", obsolete);
    }
    if (names.isEmpty()) {
      table.row(
          "-",
          "taps",
          "FAIL",
          "no taps configured: add " + DataTapKeys.TAP_URI.name() + " to core-site.xml");
      failed = true;
    }
    Map<String, TapDoctor> doctors = new LinkedHashMap<>();
    Map<String, Future<?>> running = new LinkedHashMap<>();
    ExecutorService pool =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "dtap-doctor");
              t.setDaemon(true);
              return t;
            });
    try {
      for (String name : names) {
        TapConfig tap = config.taps().get(name);
        if (tap != null) {
          TapDoctor d = new TapDoctor(in.conf(), tap, timeout);
          doctors.put(name, d);
          running.put(name, pool.submit(d::examine));
        }
      }
      long deadline = System.nanoTime() + timeout.toNanos();
      for (String name : names) {
        InvalidConfigurationException invalid = config.invalidTaps().get(name);
        TapDoctor d = doctors.get(name);
        if (invalid != null) {
          table.row(name, "settings", "FAIL", invalid.getMessage());
          failed = true;
          continue;
        }
        if (d == null) {
          table.row(
              name,
              "settings",
              "FAIL",
              "no such tap: add " + DataTapKeys.TAP_URI.forTap(name) + " to core-site.xml");
          failed = true;
          continue;
        }
        String unfinished = await(running.get(name), deadline);
        List<TapDoctor.Finding> findings = d.findings();
        for (TapDoctor.Finding f : findings) {
          table.row(name, f.check, f.status.name(), f.detail);
          failed |= f.status == TapDoctor.Status.FAIL;
        }
        if (unfinished != null) {
          table.row(name, "time", "FAIL", unfinished);
          failed = true;
        }
      }
    } finally {
      pool.shutdownNow();
    }
    report.print(in.out(), in.json());
    return failed ? DtapTool.PROBLEM : DtapTool.OK;
  }

  /**
   * The keys of earlier releases the configuration still sets; they no longer do anything, so a
   * site file that sets them says something the jobs will not do.
   */
  private static String obsoleteKeys(Configuration conf) {
    StringBuilder found = new StringBuilder();
    for (Map.Entry<String, String> old : CommitterKeys.obsolete().entrySet()) {
      if (conf.get(old.getKey()) != null) {
        found.append(found.length() == 0 ? "" : "; ");
        found.append(old.getKey()).append(" is no longer read: ").append(old.getValue());
      }
    }
    return found.toString();
  }

  /** Waits for one tap's checks; returns why they did not finish, or null when they did. */
  private static String await(Future<?> f, long deadline) throws InterruptedException {
    try {
      f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      return null;
    } catch (TimeoutException e) {
      f.cancel(true);
      return "no answer within the time limit (--timeout): the backend hangs or retries; the"
          + " checks after the last one listed did not run";
    } catch (ExecutionException e) {
      return "the checks stopped: " + DtapTool.describe(e.getCause());
    }
  }
}
