package dev.dtap.tools;

import dev.dtap.cache.TapCacheAdmin;
import dev.dtap.fs.config.DataTapKeys;
import dev.dtap.fs.spi.TapExtensions;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code dtap bench read}: sequential read throughput of the files under a path, from the backend
 * (the tap with its cache off), then through the cache cold and warm, side by side in one run.
 */
final class BenchReadCommand implements Command {
  @Override
  public String name() {
    return "bench read";
  }

  @Override
  public String arguments() {
    return "[--json] <dtap path>";
  }

  @Override
  public String summary() {
    return "cold and warm read throughput through dtap against the backend";
  }

  @Override
  public Set<String> flags() {
    return Collections.singleton("--json");
  }

  @Override
  public String details() {
    return "Reads every file under the path three times: with the tap's cache off (the backend),\n"
        + "then with it on after evicting the files' pages (cold), then again (warm). Evicts only\n"
        + "the pages of the files read. One run on a shared host is noisy: compare the ratios.";
  }

  @Override
  public int run(Invocation in) throws Exception {
    Path path = Taps.dtapPath(in.single("dtap path"));
    String tap = Taps.tapOf(path);
    Configuration uncached = new Configuration(in.conf());
    uncached.setBoolean(DataTapKeys.TAP_CACHE.forTap(tap), false);
    Report report = new Report();
    Report.Table t = report.table("runs", "run", "bytes:bytes", "seconds", "mib/s", "vs backend");
    double backend;
    List<FileStatus> files;
    try (FileSystem fs = Taps.openFor(uncached, path)) {
      files = Taps.files(fs, path, true);
      backend = row(t, "backend", fs, files, 0);
    }
    try (FileSystem fs = Taps.openFor(in.conf(), path)) {
      Optional<TapCacheAdmin> admin = TapExtensions.find(fs, TapCacheAdmin.class);
      if (admin.isPresent()) {
        for (FileStatus f : files) {
          admin.get().evict(f.getPath());
        }
        row(t, "dtap cold", fs, files, backend);
        admin.get().awaitWrites();
        row(t, "dtap warm", fs, files, backend);
      } else {
        row(t, "dtap (cache off)", fs, files, backend);
        report.note(
            "The cache is off for tap '"
                + tap
                + "': set "
                + DataTapKeys.TAP_CACHE.forTap(tap)
                + "=true to compare cold and warm reads");
      }
    }
    report.field("files", (long) files.size());
    report.print(in.out(), in.json());
    return DtapTool.OK;
  }

  /** Reads the files once and adds a row; returns the throughput in MiB/s. */
  private static double row(
      Report.Table t, String name, FileSystem fs, List<FileStatus> files, double backend)
      throws IOException {
    long start = System.nanoTime();
    long bytes = Taps.readAll(fs, files, (f, n) -> {});
    double seconds = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
    double mibs = bytes / seconds / (1 << 20);
    t.row(
        name,
        bytes,
        String.format(Locale.ROOT, "%.3f", seconds),
        String.format(Locale.ROOT, "%.1f", mibs),
        backend == 0 ? null : String.format(Locale.ROOT, "%.2fx", mibs / backend));
    return mibs;
  }
}
