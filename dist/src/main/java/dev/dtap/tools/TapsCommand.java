package dev.dtap.tools;

import dev.dtap.fs.config.DataTapConfig;
import dev.dtap.fs.config.DataTapKeys;
import dev.dtap.fs.config.InvalidConfigurationException;
import dev.dtap.fs.config.TapConfig;
import java.util.Map;

/** {@code dtap taps}: the configured taps, invalid ones flagged. */
final class TapsCommand implements Command {
  @Override
  public String name() {
    return "taps";
  }

  @Override
  public String arguments() {
    return "[--json]";
  }

  @Override
  public String summary() {
    return "list the configured taps (no secrets); invalid ones are flagged";
  }

  @Override
  public java.util.Set<String> flags() {
    return java.util.Collections.singleton("--json");
  }

  @Override
  public int run(Invocation in) throws Exception {
    DataTapConfig config = Taps.config(in.conf());
    Report report = new Report();
    if (config.tapNames().isEmpty()) {
      report.note("No taps configured: add " + DataTapKeys.TAP_URI.name() + " to core-site.xml");
      report.print(in.out(), in.json());
      return DtapTool.PROBLEM;
    }
    Report.Table t =
        report.table("taps", "tap", "mode", "cache", "locality", "root", "own settings");
    for (TapConfig tap : config.taps().values()) {
      t.row(
          tap.name(),
          tap.readOnly() ? "ro" : "rw",
          tap.cacheEnabled() ? "on" : "off",
          tap.localityEnabled() ? "on" : "off",
          tap.root().toString(),
          new java.util.ArrayList<>(tap.backendOverrides().keySet()));
    }
    for (Map.Entry<String, InvalidConfigurationException> e : config.invalidTaps().entrySet()) {
      t.row(e.getKey(), "INVALID", null, null, e.getValue().getMessage(), null);
    }
    report.print(in.out(), in.json());
    return config.invalidTaps().isEmpty() ? DtapTool.OK : DtapTool.PROBLEM;
  }
}
