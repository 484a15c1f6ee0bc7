package dev.dtap.bench;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A remote filesystem as seen from far away: every metadata call to the wrapped filesystem waits a
 * fixed round trip first (and each page of a listing does), so that benchmarks on loopback servers
 * show what a per-file call costs across a real network. {@code delay://<name>/path} maps to {@code
 * fs.delay.<name>.uri} + path.
 *
 * <ul>
 *   <li>{@code fs.delay.rtt}: the round trip, default {@code 2ms};
 *   <li>{@code fs.delay.page}: entries per listing page, default 1000 (HDFS's {@code
 *       dfs.ls.limit});
 *   <li>{@code fs.delay.batched-locations} (or {@code fs.delay.<name>.batched-locations}): {@code
 *       true} (default) lists with locations page by page as HDFS does; {@code false} behaves like
 *       a remote service without that call, answering {@code listLocatedStatus} with one location
 *       call per file.
 * </ul>
 *
 * Counts {@link #locationCalls()} and {@link #roundTrips()} across all instances.
 */
public final class DelayFileSystem extends FileSystem {
  private static final AtomicLong LOCATION_CALLS = new AtomicLong();
  private static final AtomicLong ROUND_TRIPS = new AtomicLong();

  private URI uri;
  private FileSystem inner;
  private URI innerRoot;
  private long rttNanos;
  private int page;
  private boolean batchedLocations;
  private Path workingDir;

  /**
   * @return location calls made to any delay filesystem so far
   */
  public static long locationCalls() {
    return LOCATION_CALLS.get();
  }

  /**
   * @return simulated round trips so far
   */
  public static long roundTrips() {
    return ROUND_TRIPS.get();
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    uri = URI.create("delay://" + name.getAuthority());
    innerRoot = URI.create(conf.get("fs.delay." + name.getAuthority() + ".uri"));
    inner = FileSystem.get(innerRoot, conf);
    rttNanos = conf.getTimeDuration("fs.delay.rtt", 2, TimeUnit.MILLISECONDS, TimeUnit.NANOSECONDS);
    page = conf.getInt("fs.delay.page", 1000);
    batchedLocations =
        conf.getBoolean(
            "fs.delay." + name.getAuthority() + ".batched-locations",
            conf.getBoolean("fs.delay.batched-locations", true));
    workingDir = new Path(uri.toString() + "/");
  }

  private void roundTrip() {
    ROUND_TRIPS.incrementAndGet();
    long end = System.nanoTime() + rttNanos;
    long left;
    while ((left = end - System.nanoTime()) > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private String rootPath() {
    String r = innerRoot.getPath() == null ? "" : innerRoot.getPath();
    return r.endsWith("/") ? r.substring(0, r.length() - 1) : r;
  }

  private Path in(Path p) {
    String path = makeQualified(p).toUri().getPath();
    return new Path(innerRoot.getScheme(), innerRoot.getAuthority(), rootPath() + path);
  }

  private Path out(Path p) {
    String path = p.toUri().getPath();
    String root = rootPath();
    if (!root.isEmpty() && path.startsWith(root)) {
      path = path.substring(root.length());
    }
    return new Path("delay", uri.getAuthority(), path.isEmpty() ? "/" : path);
  }

  private FileStatus out(FileStatus s) throws IOException {
    FileStatus copy = new FileStatus(s);
    copy.setPath(out(s.getPath()));
    return copy;
  }

  private LocatedFileStatus outLocated(FileStatus s, BlockLocation[] locations) throws IOException {
    return new LocatedFileStatus(out(s), locations);
  }

  @Override
  public String getScheme() {
    return "delay";
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    roundTrip();
    return inner.open(in(f), bufferSize);
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    roundTrip();
    return inner.create(in(f), permission, overwrite, bufferSize, replication, blockSize, progress);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    throw new IOException("append is not supported by the delay filesystem");
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    roundTrip();
    return inner.rename(in(src), in(dst));
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    roundTrip();
    return inner.delete(in(f), recursive);
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    FileStatus[] listed = inner.listStatus(in(f));
    for (int i = 0; i <= listed.length / page; i++) {
      roundTrip();
    }
    FileStatus[] result = new FileStatus[listed.length];
    for (int i = 0; i < listed.length; i++) {
      result[i] = out(listed[i]);
    }
    return result;
  }

  @Override
  public RemoteIterator<FileStatus> listStatusIterator(Path f) throws IOException {
    FileStatus[] all = listStatus(f);
    return new RemoteIterator<FileStatus>() {
      private int i;

      @Override
      public boolean hasNext() {
        return i < all.length;
      }

      @Override
      public FileStatus next() {
        return all[i++];
      }
    };
  }

  @Override
  protected RemoteIterator<LocatedFileStatus> listLocatedStatus(Path f, PathFilter filter)
      throws IOException {
    List<LocatedFileStatus> result = new ArrayList<>();
    if (batchedLocations) {
      RemoteIterator<LocatedFileStatus> it = inner.listLocatedStatus(in(f));
      int n = 0;
      while (it.hasNext()) {
        LocatedFileStatus s = it.next();
        if (n++ % page == 0) {
          roundTrip();
        }
        Path p = out(s.getPath());
        if (filter.accept(p)) {
          result.add(outLocated(s, s.getBlockLocations()));
        }
      }
      if (n == 0) {
        roundTrip();
      }
      LOCATION_CALLS.addAndGet(Math.max(1, (n + page - 1) / page));
    } else {
      for (FileStatus s : listStatus(f)) {
        if (filter.accept(s.getPath())) {
          result.add(
              new LocatedFileStatus(
                  s, s.isDirectory() ? null : getFileBlockLocations(s, 0, s.getLen())));
        }
      }
    }
    return new RemoteIterator<LocatedFileStatus>() {
      private int i;

      @Override
      public boolean hasNext() {
        return i < result.size();
      }

      @Override
      public LocatedFileStatus next() {
        return result.get(i++);
      }
    };
  }

  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len)
      throws IOException {
    roundTrip();
    LOCATION_CALLS.incrementAndGet();
    FileStatus innerStatus = new FileStatus(file);
    innerStatus.setPath(in(file.getPath()));
    return inner.getFileBlockLocations(innerStatus, start, len);
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDir = makeQualified(dir);
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    roundTrip();
    return inner.mkdirs(in(f), permission);
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    roundTrip();
    try {
      return out(inner.getFileStatus(in(f)));
    } catch (FileNotFoundException e) {
      throw new FileNotFoundException(f.toString());
    }
  }
}
