package dev.dtap.tools;

import dev.dtap.cache.CacheKeys;
import dev.dtap.cache.TapCacheAdmin;
import dev.dtap.cache.disk.CacheDirectory;
import dev.dtap.fs.config.DataTapKeys;
import dev.dtap.fs.config.TapConfig;
import dev.dtap.fs.spi.TapExtensions;
import dev.dtap.locality.LocalityKeys;
import dev.dtap.locality.TapLocalityAdmin;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.security.AccessControlException;

/**
 * The checks of one tap for {@code dtap doctor}: class path, backend, credentials, mode, cache
 * directories and locality membership. Each check records a finding and the next runs, so one
 * failure never hides another. Not thread-safe: one instance checks one tap.
 */
final class TapDoctor {
  /** The result of one check. */
  enum Status {
    OK,
    WARN,
    FAIL,
    SKIP
  }

  /** One line of the doctor's table. Immutable. */
  static final class Finding {
    final String check;
    final Status status;
    final String detail;

    Finding(String check, Status status, String detail) {
      this.check = check;
      this.status = status;
      this.detail = detail;
    }
  }

  private final Configuration conf;
  private final TapConfig tap;
  private final Duration timeout;
  private final List<Finding> findings = new ArrayList<>();

  TapDoctor(Configuration conf, TapConfig tap, Duration timeout) {
    this.conf = conf;
    this.tap = tap;
    this.timeout = timeout;
  }

  /** Runs every check; the findings so far are kept if the thread is interrupted. */
  void examine() {
    String scheme = tap.root().getScheme();
    add(
        "settings",
        Status.OK,
        scheme + ":// backend, " + (tap.readOnly() ? "read-only" : "read-write"));
    if (!classPath(scheme)) {
      return;
    }
    try (FileSystem fs = Taps.open(conf, tap.name())) {
      if (backend(fs)) {
        cache(fs);
        locality(fs);
      }
    } catch (IOException | RuntimeException e) {
      add("open", Status.FAIL, DtapTool.describe(e));
    }
  }

  synchronized List<Finding> findings() {
    return new ArrayList<>(findings);
  }

  private synchronized void add(String check, Status status, String detail) {
    findings.add(new Finding(check, status, detail));
  }

  private boolean classPath(String scheme) {
    if ("s3a".equals(scheme)) {
      if (!present("org.apache.hadoop.fs.s3a.S3AFileSystem")) {
        add(
            "classpath",
            Status.FAIL,
            "S3A is not on the class path: add hadoop-aws (the version of your Hadoop) and its"
                + " AWS SDK bundle");
        return false;
      }
      Optional<String> sdk = SdkVersion.find();
      if (!sdk.isPresent()) {
        add(
            "classpath",
            Status.FAIL,
            "S3A is there but no AWS SDK: add the SDK bundle hadoop-aws was built with");
        return false;
      }
      add("classpath", Status.OK, "S3A with " + sdk.get());
      return true;
    }
    try {
      add("classpath", Status.OK, FileSystem.getFileSystemClass(scheme, conf).getName());
      return true;
    } catch (IOException | RuntimeException e) {
      add(
          "classpath",
          Status.FAIL,
          "no FileSystem for " + scheme + "://: add its jar to the class path");
      return false;
    }
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, TapDoctor.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private boolean backend(FileSystem fs) {
    Path root = new Path("dtap://" + tap.name() + "/");
    try {
      FileStatus st = fs.getFileStatus(root);
      if (!st.isDirectory()) {
        add(
            "backend",
            Status.FAIL,
            "the tap root is a file: point " + uriKey() + " at a directory");
        return false;
      }
      add("backend", Status.OK, "root reachable");
    } catch (IOException | RuntimeException e) {
      add("backend", Status.FAIL, advice(e));
      return false;
    }
    try {
      RemoteIterator<FileStatus> it = fs.listStatusIterator(root);
      int n = 0;
      while (n < 10 && it.hasNext()) {
        it.next();
        n++;
      }
      add(
          "list root",
          Status.OK,
          "credentials work: " + (n == 10 ? "10 or more" : String.valueOf(n)) + " entries");
      return true;
    } catch (IOException | RuntimeException e) {
      add("list root", Status.FAIL, advice(e));
      return false;
    }
  }

  /** What went wrong and what to change, classified by type along the cause chain. */
  private String advice(Throwable e) {
    String what = DtapTool.describe(e);
    String overrides = DataTapKeys.TAP_CONF.forTap(tap.name()).replace("<key>", "*");
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof AccessDeniedException || t instanceof AccessControlException) {
        return what
            + " -- credentials refused: check "
            + overrides
            + " (e.g. fs.s3a.access.key) or the bucket policy";
      }
      if (t instanceof UnknownHostException
          || t instanceof ConnectException
          || t instanceof NoRouteToHostException) {
        return what
            + " -- backend unreachable: check the endpoint in "
            + uriKey()
            + " or "
            + overrides;
      }
      if (t instanceof SocketTimeoutException) {
        return what + " -- backend does not answer in time: check the network and the endpoint";
      }
    }
    if (e instanceof FileNotFoundException) {
      return what + " -- the tap root does not exist: create it or fix " + uriKey();
    }
    return what;
  }

  private String uriKey() {
    return DataTapKeys.TAP_URI.forTap(tap.name());
  }

  private void cache(FileSystem fs) {
    if (!tap.cacheEnabled()) {
      add("cache", Status.SKIP, "off");
      return;
    }
    Optional<TapCacheAdmin> admin = TapExtensions.find(fs, TapCacheAdmin.class);
    if (!admin.isPresent()) {
      add(
          "cache",
          Status.FAIL,
          "on, but the read cache module is not on the class path: use the dtap-hadoop jar");
      return;
    }
    for (CacheDirectory d : admin.get().directories()) {
      long room = Math.max(0, d.quotaBytes() - d.bytes());
      if (d.problem() != null) {
        add(
            "cache",
            Status.FAIL,
            d.path() + " " + d.problem() + ": fix its permissions or " + CacheKeys.DIRS.name());
      } else if (d.usableBytes() < room) {
        add(
            "cache",
            Status.WARN,
            d.path()
                + ": "
                + Report.bytes(d.usableBytes())
                + " free, less than the "
                + Report.bytes(room)
                + " the cache may still grow by: free space or lower "
                + CacheKeys.MAX_SIZE.name());
      } else {
        add(
            "cache",
            Status.OK,
            d.path()
                + ": "
                + d.pages()
                + " pages, "
                + Report.bytes(d.bytes())
                + " of "
                + Report.bytes(d.quotaBytes())
                + ", "
                + Report.bytes(d.usableBytes())
                + " free");
      }
    }
  }

  private void locality(FileSystem fs) {
    if (!tap.localityEnabled()) {
      add("locality", Status.SKIP, "off");
      return;
    }
    Optional<TapLocalityAdmin> admin = TapExtensions.find(fs, TapLocalityAdmin.class);
    if (!admin.isPresent()) {
      add(
          "locality",
          Status.FAIL,
          "on, but the locality module is not on the class path: use the dtap-hadoop jar");
      return;
    }
    try {
      admin.get().refreshMembership(timeout);
      int hosts = admin.get().hosts().size();
      add(
          "locality",
          hosts == 0 ? Status.WARN : Status.OK,
          admin.get().membershipSource()
              + ": "
              + hosts
              + " hosts"
              + (hosts == 0 ? "; placement falls back" : ""));
    } catch (IOException e) {
      add(
          "locality",
          Status.FAIL,
          e.getMessage()
              + " -- check "
              + LocalityKeys.MEMBERSHIP.name()
              + " and the settings of its source, and that the source is up");
    }
  }
}
