package dev.dtap.fs;

import dev.dtap.fs.DataTapStatistics.Op;
import dev.dtap.fs.spi.OutputHook;
import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * Creating, appending, renaming, deleting and making directories on a tap. Every method refuses a
 * read-only tap before touching the backend. Thread-safe.
 */
final class WriteOperations {
  private final OpContext ctx;

  WriteOperations(OpContext ctx) {
    this.ctx = ctx;
  }

  /** The output hook (magic committer) for a create, or null. */
  private OutputHook hook(Path p, EnumSet<CreateFlag> flags) {
    return flags.contains(CreateFlag.APPEND) ? null : ctx.tap().hookFor(p);
  }

  /** One of the backend's create calls, applied to the translated path. */
  interface BackendCreate {
    FSDataOutputStream create(FileSystem backend, Path backendPath) throws IOException;
  }

  /**
   * Creates a file through the output hook when one handles the path, else through the backend.
   *
   * @param f the caller's path
   * @param flags what the caller asked for (overwrite, append)
   * @param creator the backend call with the caller's other arguments
   * @return the stream
   * @throws IOException on failure
   */
  FSDataOutputStream create(Path f, EnumSet<CreateFlag> flags, BackendCreate creator)
      throws IOException {
    Path p = ctx.writable(f, "create", Op.CREATE);
    OutputHook hook = hook(p, flags);
    if (hook != null) {
      return ctx.call(() -> hook.create(p, flags.contains(CreateFlag.OVERWRITE)));
    }
    Path b = ctx.toBackend(p);
    return ctx.wrapOut(ctx.call(b, () -> creator.create(ctx.backend(), b)), p);
  }

  FSDataOutputStream append(Path f, int bufferSize, Progressable progress, Boolean appendToNewBlock)
      throws IOException {
    Path p = ctx.writable(f, "append", Op.APPEND);
    Path b = ctx.toBackend(p);
    FSDataOutputStream out =
        appendToNewBlock == null
            ? ctx.call(b, () -> ctx.backend().append(b, bufferSize, progress))
            : ctx.call(b, () -> ctx.backend().append(b, bufferSize, progress, appendToNewBlock));
    return ctx.wrapOut(out, p);
  }

  /** Builds a stream for {@link DataTapOutputStreamBuilder}. */
  FSDataOutputStream build(Path f, DataTapOutputStreamBuilder settings) throws IOException {
    boolean append = settings.isAppend();
    Path p = ctx.writable(f, append ? "append" : "create", append ? Op.APPEND : Op.CREATE);
    OutputHook hook = append ? null : ctx.tap().hookFor(p);
    if (hook != null) {
      return ctx.call(() -> hook.create(p, settings.isOverwrite()));
    }
    Path b = ctx.toBackend(p);
    FSDataOutputStream out =
        ctx.call(
            b,
            () ->
                settings
                    .copyTo(append ? ctx.backend().appendFile(b) : ctx.backend().createFile(b))
                    .build());
    return ctx.wrapOut(out, p);
  }

  boolean rename(Path src, Path dst) throws IOException {
    Path[] b = renamePaths(src, dst);
    return ctx.call(b[0], () -> ctx.backend().rename(b[0], b[1]));
  }

  void rename(Path src, Path dst, Options.Rename... options) throws IOException {
    Path[] b = renamePaths(src, dst);
    ctx.run(b[0], () -> FileUtil.rename(ctx.backend(), b[0], b[1], options));
  }

  private Path[] renamePaths(Path src, Path dst) throws IOException {
    String dstTap = dst.toUri().getAuthority();
    String tap = ctx.tap().name();
    if (DataTapFileSystem.SCHEME.equalsIgnoreCase(dst.toUri().getScheme())
        && dstTap != null
        && !dstTap.equals(tap)) {
      throw new IOException(
          "Cannot rename "
              + ctx.qualify(src)
              + " to "
              + dst
              + ": the paths are on different taps ('"
              + tap
              + "' and '"
              + dstTap
              + "'); rename never copies, copy the data instead (for example with distcp)");
    }
    Path s = ctx.writable(src, "rename", Op.RENAME);
    Path d = ctx.writable(dst, "rename", Op.RENAME);
    return new Path[] {ctx.toBackend(s), ctx.toBackend(d)};
  }

  boolean delete(Path f, boolean recursive) throws IOException {
    Path p = ctx.writable(f, "delete", Op.DELETE);
    Path b = ctx.toBackend(p);
    if (ctx.isRoot(p)) {
      return RootDelete.delete(ctx.backend(), b, recursive, p, ctx.tap().errors());
    }
    return ctx.call(b, () -> ctx.backend().delete(b, recursive));
  }

  boolean mkdirs(Path f, FsPermission permission) throws IOException {
    Path p = ctx.writable(f, "mkdirs", Op.MKDIRS);
    Path b = ctx.toBackend(p);
    if (ctx.tap().hookFor(p) != null) {
      // a hooked namespace (magic committer paths) is virtual: its files go elsewhere, so there is
      // no directory to create, and creating one would cost store requests for nothing
      return true;
    }
    return ctx.call(b, () -> ctx.backend().mkdirs(b, permission));
  }

  boolean truncate(Path f, long newLength) throws IOException {
    Path b = ctx.toBackend(ctx.writable(f, "truncate", Op.APPEND));
    return ctx.call(b, () -> ctx.backend().truncate(b, newLength));
  }

  void concat(Path trg, Path[] psrcs) throws IOException {
    Path b = ctx.toBackend(ctx.writable(trg, "concat", Op.APPEND));
    Path[] sources = new Path[psrcs.length];
    for (int i = 0; i < psrcs.length; i++) {
      sources[i] = ctx.toBackend(ctx.writable(psrcs[i], "concat", Op.APPEND));
    }
    ctx.run(b, () -> ctx.backend().concat(b, sources));
  }
}
