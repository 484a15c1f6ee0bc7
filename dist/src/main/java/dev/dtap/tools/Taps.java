package dev.dtap.tools;

import dev.dtap.fs.config.DataTapConfig;
import dev.dtap.fs.spi.TapExtensions;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/** Opening taps and walking their paths for the commands. Stateless. */
final class Taps {
  private Taps() {}

  /** The parsed tap settings; invalid taps are listed, not thrown. */
  static DataTapConfig config(Configuration conf) throws IOException {
    return DataTapConfig.parse(conf, Collections.emptyList());
  }

  /**
   * A private filesystem instance for a tap (not Hadoop's shared one: commands change settings).
   *
   * @param conf the configuration
   * @param tap the tap name
   * @return the filesystem; the caller closes it
   * @throws IOException if the tap cannot be opened
   */
  static FileSystem open(Configuration conf, String tap) throws IOException {
    return FileSystem.newInstance(URI.create("dtap://" + tap + "/"), conf);
  }

  /**
   * A dtap path given on the command line.
   *
   * @throws UsageException if it is not a {@code dtap://tap/...} path
   */
  static Path dtapPath(String arg) throws UsageException {
    URI uri;
    try {
      uri = new Path(arg).toUri();
    } catch (IllegalArgumentException e) {
      uri = null;
    }
    if (uri == null || !"dtap".equals(uri.getScheme()) || uri.getAuthority() == null) {
      throw new UsageException("expected a dtap://<tap>/<path> path, got '" + arg + "'");
    }
    return new Path(arg);
  }

  /** A private filesystem instance for the tap of a dtap path; the caller closes it. */
  static FileSystem openFor(Configuration conf, Path dtapPath) throws IOException {
    return open(conf, dtapPath.toUri().getAuthority());
  }

  /** The tap name of a dtap path. */
  static String tapOf(Path path) {
    return path.toUri().getAuthority();
  }

  /**
   * The files a command acts on: the path itself if it is a file, else the files under it.
   *
   * @param recursive whether to descend into subdirectories
   * @throws FileNotFoundException if the path does not exist
   */
  static List<FileStatus> files(FileSystem fs, Path path, boolean recursive) throws IOException {
    FileStatus st = fs.getFileStatus(path);
    List<FileStatus> files = new ArrayList<>();
    if (st.isFile()) {
      files.add(st);
      return files;
    }
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(path, recursive);
    while (it.hasNext()) {
      files.add(it.next());
    }
    return files;
  }

  /** Receives the bytes read from one file. */
  interface ReadListener {
    void read(FileStatus file, int bytes);
  }

  /**
   * Reads files to their end in 1 MiB reads, as a sequential job would.
   *
   * @return the bytes read
   * @throws IOException if a file cannot be read
   */
  static long readAll(FileSystem fs, List<FileStatus> files, ReadListener listener)
      throws IOException {
    byte[] buffer = new byte[1 << 20];
    long total = 0;
    for (FileStatus f : files) {
      try (FSDataInputStream s = fs.open(f.getPath())) {
        int n;
        while ((n = s.read(buffer)) > 0) {
          total += n;
          listener.read(f, n);
        }
      }
    }
    return total;
  }

  /**
   * An extension object of a tap, or a clear error saying which setting turns it on.
   *
   * @param what e.g. {@code the read cache}
   * @param key the per-tap switch, e.g. {@code fs.dtap.tap.lake.cache}
   * @throws IOException if the tap has none
   */
  static <T> T extension(FileSystem fs, Class<T> type, String tap, String what, String key)
      throws IOException {
    return TapExtensions.find(fs, type)
        .orElseThrow(
            () -> new IOException(what + " is off for tap '" + tap + "': set " + key + "=true"));
  }
}
