package dev.dtap.tools;

import dev.dtap.cache.CacheKeys;
import dev.dtap.cache.CachedFile;
import dev.dtap.cache.TapCacheAdmin;
import dev.dtap.cache.disk.CacheDirectory;
import dev.dtap.fs.config.DataTapConfig;
import dev.dtap.fs.config.DataTapKeys;
import dev.dtap.fs.config.TapConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The {@code dtap cache} commands: the read cache of this host. */
final class CacheCommands {
  private static final Set<String> JSON = Collections.singleton("--json");

  private CacheCommands() {}

  static TapCacheAdmin admin(FileSystem fs, String tap) throws IOException {
    return Taps.extension(
        fs, TapCacheAdmin.class, tap, "The read cache", DataTapKeys.TAP_CACHE.forTap(tap));
  }

  /** {@code dtap cache stats}: the cache directories of this host. */
  static final class Stats implements Command {
    @Override
    public String name() {
      return "cache stats";
    }

    @Override
    public String arguments() {
      return "[--json] [tap ...]";
    }

    @Override
    public String summary() {
      return "cache directories of this host: pages, bytes, quota, free space";
    }

    @Override
    public Set<String> flags() {
      return JSON;
    }

    @Override
    public String details() {
      return "Counts the page files every JVM of the host wrote. Without taps, uses the first tap\n"
          + "with the cache on (the directories are shared by all taps).";
    }

    @Override
    public int run(Invocation in) throws Exception {
      DataTapConfig config = Taps.config(in.conf());
      List<String> taps = new ArrayList<>(in.positional());
      if (taps.isEmpty()) {
        for (TapConfig t : config.taps().values()) {
          if (t.cacheEnabled()) {
            taps.add(t.name());
            break;
          }
        }
        if (taps.isEmpty()) {
          throw new IOException(
              "No tap has the read cache on: set " + DataTapKeys.TAP_CACHE.name() + "=true");
        }
      }
      Report report = new Report();
      Report.Table dirs =
          report.table(
              "directories",
              "tap",
              "directory",
              "pages:count",
              "bytes:bytes",
              "quota:bytes",
              "free:bytes",
              "problem");
      int status = DtapTool.OK;
      long pageSize = 0;
      Map<String, Long> service = new LinkedHashMap<>();
      for (String tap : taps) {
        try (FileSystem fs = Taps.open(in.conf(), tap)) {
          TapCacheAdmin admin = admin(fs, tap);
          pageSize = admin.pageSize(); // one setting for the host: the same for every tap
          service = admin.serviceStatistics(); // one service for the host
          for (CacheDirectory d : admin.directories()) {
            dirs.row(
                tap,
                d.path().toString(),
                d.pages(),
                d.bytes(),
                d.quotaBytes(),
                d.usableBytes(),
                d.problem());
            if (d.problem() != null) {
              status = DtapTool.PROBLEM;
            }
          }
        }
      }
      report.field("page size", pageSize);
      if (!service.isEmpty()) {
        Report.Table t = report.table("cache service", "counter", "value:count");
        for (Map.Entry<String, Long> e : service.entrySet()) {
          t.row(e.getKey(), e.getValue());
        }
      }
      report.print(in.out(), in.json());
      return status;
    }
  }

  /** {@code dtap cache ls}: pages cached per file. */
  static final class Ls implements Command {
    @Override
    public String name() {
      return "cache ls";
    }

    @Override
    public String arguments() {
      return "[--json] <dtap path>";
    }

    @Override
    public String summary() {
      return "pages cached on this host for a file, or for each file in a directory";
    }

    @Override
    public Set<String> flags() {
      return JSON;
    }

    @Override
    public int run(Invocation in) throws Exception {
      Path path = Taps.dtapPath(in.single("dtap path"));
      try (FileSystem fs = Taps.openFor(in.conf(), path)) {
        TapCacheAdmin admin = admin(fs, Taps.tapOf(path));
        Report report = new Report();
        Report.Table t =
            report.table(
                "files",
                "file",
                "length:bytes",
                "pages:count",
                "cached:count",
                "percent:count",
                "disk:bytes");
        long pages = 0;
        long cached = 0;
        for (FileStatus f : Taps.files(fs, path, false)) {
          CachedFile c = admin.inspect(f.getPath());
          t.row(
              f.getPath().toString(),
              c.length(),
              c.pages(),
              c.pagesOnDisk(),
              percent(c.pagesOnDisk(), c.pages()),
              c.bytesOnDisk());
          pages += c.pages();
          cached += c.pagesOnDisk();
        }
        report.field("pages", pages).field("cached", cached);
        report.print(in.out(), in.json());
        return DtapTool.OK;
      }
    }
  }

  static long percent(long part, long whole) {
    return whole == 0 ? 100 : part * 100 / whole;
  }

  /** {@code dtap cache evict}: drop the pages of the files under a path. */
  static final class Evict implements Command {
    @Override
    public String name() {
      return "cache evict";
    }

    @Override
    public String arguments() {
      return "<dtap path>";
    }

    @Override
    public String summary() {
      return "drop this host's cached pages of a file, or of every file under a directory";
    }

    @Override
    public int run(Invocation in) throws Exception {
      Path path = Taps.dtapPath(in.single("dtap path"));
      try (FileSystem fs = Taps.openFor(in.conf(), path)) {
        TapCacheAdmin admin = admin(fs, Taps.tapOf(path));
        long files = 0;
        long pages = 0;
        long bytes = 0;
        for (FileStatus f : Taps.files(fs, path, true)) {
          CachedFile before = admin.evict(f.getPath());
          files++;
          pages += before.pagesOnDisk();
          bytes += before.bytesOnDisk();
        }
        in.out()
            .println(
                "Evicted "
                    + pages
                    + " pages ("
                    + Report.bytes(bytes)
                    + ") of "
                    + files
                    + " files under "
                    + path);
        return DtapTool.OK;
      }
    }
  }

  /** {@code dtap cache warm}: read the files under a path into the cache. */
  static final class Warm implements Command {
    @Override
    public String name() {
      return "cache warm";
    }

    @Override
    public String arguments() {
      return "<dtap path>";
    }

    @Override
    public String summary() {
      return "read a file, or every file under a directory, into this host's cache";
    }

    @Override
    public String details() {
      return "Every page read is admitted (as with "
          + CacheKeys.SCAN_ADMISSION.name()
          + "=first-read) and\n"
          + "written to disk before the command ends. Shows a progress bar on a terminal.";
    }

    @Override
    public int run(Invocation in) throws Exception {
      Path path = Taps.dtapPath(in.single("dtap path"));
      Configuration conf = new Configuration(in.conf());
      conf.set(CacheKeys.SCAN_ADMISSION.name(), "first-read");
      try (FileSystem fs = Taps.openFor(conf, path)) {
        TapCacheAdmin admin = admin(fs, Taps.tapOf(path));
        List<FileStatus> files = Taps.files(fs, path, true);
        long total = 0;
        for (FileStatus f : files) {
          total += f.getLen();
        }
        Progress progress = new Progress(in.out(), Progress.stdoutIsTerminal(), total);
        Taps.readAll(fs, files, (f, n) -> progress.advance(n, f.getPath().getName()));
        progress.finish();
        admin.awaitWrites();
        long pages = 0;
        long cached = 0;
        for (FileStatus f : files) {
          CachedFile c = admin.inspect(f.getPath());
          pages += c.pages();
          cached += c.pagesOnDisk();
        }
        in.out()
            .println(
                "Warmed "
                    + files.size()
                    + " files ("
                    + Report.bytes(total)
                    + "): "
                    + cached
                    + " of "
                    + pages
                    + " pages on disk");
        if (cached < pages) {
          in.out()
              .println("Some pages did not fit: see dtap cache stats for the quota and free space");
          return DtapTool.PROBLEM;
        }
        return DtapTool.OK;
      }
    }
  }
}
