package dev.dtap.fs;

import dev.dtap.fs.DataTapStatistics.Op;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;

/**
 * What every operation class of one dtap filesystem shares: the tap, the path qualification of the
 * owning filesystem (its working directory), statistics and the backend call wrappers that rewrite
 * exceptions.
 *
 * <p>Thread-safe.
 */
final class OpContext {
  /** A backend call with a result. */
  interface BackendCall<T> {
    T call() throws IOException;
  }

  /** A backend call without a result. */
  interface BackendRun {
    void run() throws IOException;
  }

  private final FileSystem fs;
  private final Tap tap;
  private final FileSystem.Statistics statistics;
  private final DataTapStatistics iostats;
  private final String user;

  OpContext(
      FileSystem fs,
      Tap tap,
      FileSystem.Statistics statistics,
      DataTapStatistics iostats,
      String user) {
    this.fs = fs;
    this.tap = tap;
    this.statistics = statistics;
    this.iostats = iostats;
    this.user = user;
  }

  Tap tap() {
    return tap;
  }

  FileSystem backend() {
    return tap.backend();
  }

  DataTapStatistics iostats() {
    return iostats;
  }

  /** Qualifies a caller's path against the filesystem's working directory. */
  Path qualify(Path f) {
    return fs.makeQualified(f);
  }

  /** Qualifies a path for a read and counts the operation. */
  Path readable(Path f, Op op) {
    Path p = fs.makeQualified(f);
    statistics.incrementReadOps(1);
    iostats.increment(op);
    return p;
  }

  /** Qualifies a path for a mutation, refusing it on a read-only tap, and counts it. */
  Path writable(Path f, String operation, Op op) throws AccessControlException {
    Path p = fs.makeQualified(f);
    tap.checkWritable(p, operation);
    statistics.incrementWriteOps(1);
    iostats.increment(op);
    return p;
  }

  /** Refuses a compound operation on a read-only tap before its first backend call. */
  void refuseIfReadOnly(Path f, String operation) throws AccessControlException {
    tap.checkWritable(fs.makeQualified(f), operation);
  }

  /** Backend path of a qualified dtap path, with containment. */
  Path toBackend(Path qualified) throws IOException {
    return tap.toBackend(qualified);
  }

  boolean isRoot(Path qualified) throws IOException {
    return tap.mapper().normalise(qualified).isEmpty();
  }

  <T> T call(BackendCall<T> c) throws IOException {
    try {
      return c.call();
    } catch (IOException e) {
      throw tap.errors().translate(e);
    }
  }

  void run(BackendRun r) throws IOException {
    try {
      r.run();
    } catch (IOException e) {
      throw tap.errors().translate(e);
    }
  }

  IOException translate(IOException e) {
    return tap.errors().translate(e);
  }

  /**
   * A backend call on one path. Its failure names that path in dtap form when the backend's message
   * does not: Hadoop RPC's "Connection refused" or a socket timeout says nothing of which file an
   * operation was on.
   *
   * @param backendPath the backend path the call is on (named in its dtap form)
   * @param c the call
   * @return its result
   * @throws IOException the call's failure, rewritten and naming the path
   */
  <T> T call(Path backendPath, BackendCall<T> c) throws IOException {
    try {
      return c.call();
    } catch (IOException e) {
      throw translate(e, backendPath);
    }
  }

  /** {@link #call(Path, BackendCall)} without a result. */
  void run(Path backendPath, BackendRun r) throws IOException {
    try {
      r.run();
    } catch (IOException e) {
      throw translate(e, backendPath);
    }
  }

  /**
   * Rewrites a failure of an operation on one backend path and names the path in dtap form.
   *
   * @param e the backend's failure
   * @param backendPath the path it was on, inside the tap
   * @return the rewritten failure, of the same class
   */
  IOException translate(IOException e, Path backendPath) {
    Path dtap;
    try {
      dtap = tap.toDtap(backendPath);
    } catch (AccessControlException outside) {
      // not a path of the tap (it came from the tap's own mapping, so this does not happen)
      return tap.errors().translate(e);
    }
    return tap.errors().translate(e, dtap.toString());
  }

  FSDataInputStream wrapIn(FSDataInputStream in, Path p) {
    TapTraffic traffic = tap.traffic();
    return new FSDataInputStream(
        DataTapInputStream.open(
            in,
            tap.errors(),
            n -> {
              if (statistics != null) {
                statistics.incrementBytesRead(n);
              }
              traffic.read(n);
            },
            p.toString()));
  }

  FSDataOutputStream wrapOut(FSDataOutputStream out, Path p) throws IOException {
    return new FSDataOutputStream(
        new DataTapOutputStream(out, tap.errors(), tap.traffic(), p.toString()),
        statistics,
        out.getPos());
  }

  /** The tap root always exists, even before anything was written under a fresh prefix. */
  FileStatus rootStatus(Path backendRoot) throws IOException {
    return tap.toDtapStatus(
        new FileStatus(0, true, 1, 0, 0, 0, FsPermission.getDirDefault(), user, user, backendRoot));
  }
}
