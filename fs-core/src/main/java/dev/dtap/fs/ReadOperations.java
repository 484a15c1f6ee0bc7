package dev.dtap.fs;

import dev.dtap.fs.DataTapStatistics.Op;
import dev.dtap.fs.spi.OpenRequest;
import dev.dtap.fs.spi.OutputHook;
import dev.dtap.fs.spi.ReadCache;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FutureDataInputStreamBuilder;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.impl.OpenFileParameters;

/** Opening files, file status, block locations and summaries on a tap. Thread-safe. */
final class ReadOperations {
  private final OpContext ctx;

  ReadOperations(OpContext ctx) {
    this.ctx = ctx;
  }

  FSDataInputStream open(Path f, int bufferSize) throws IOException {
    Path p = ctx.readable(f, Op.OPEN);
    Path b = ctx.toBackend(p);
    ReadCache cache = ctx.tap().cache();
    if (cache != null) {
      return ctx.wrapIn(
          ctx.call(b, () -> cache.open(new OpenRequest(p, b, null, bufferSize, null))), p);
    }
    return ctx.wrapIn(ctx.call(b, () -> ctx.backend().open(b, bufferSize)), p);
  }

  /**
   * {@code openFile()}: options, mandatory keys and a supplied status go to the backend's own
   * builder, so a caller that passes a status costs no probe.
   */
  CompletableFuture<FSDataInputStream> openFile(Path path, OpenFileParameters parameters)
      throws IOException {
    Path p = ctx.readable(path, Op.OPEN);
    Path b = ctx.toBackend(p);
    FileStatus status = backendStatusFor(parameters.getStatus(), b);
    ReadCache cache = ctx.tap().cache();
    if (cache != null) {
      rejectUnknownMandatoryOptions(b, parameters);
      OpenRequest request =
          new OpenRequest(p, b, status, parameters.getBufferSize(), parameters.getOptions());
      CompletableFuture<FSDataInputStream> result = new CompletableFuture<>();
      try {
        result.complete(ctx.wrapIn(ctx.call(b, () -> cache.open(request)), p));
      } catch (IOException e) {
        // as the backends do: a missing file fails the future, not build()
        result.completeExceptionally(e);
      }
      return result;
    }
    FutureDataInputStreamBuilder builder = ctx.call(b, () -> ctx.backend().openFile(b));
    Configuration options = parameters.getOptions();
    if (options != null) {
      for (Map.Entry<String, String> e : options) {
        if (parameters.getMandatoryKeys().contains(e.getKey())) {
          builder.must(e.getKey(), e.getValue());
        } else {
          builder.opt(e.getKey(), e.getValue());
        }
      }
    }
    if (status != null) {
      builder.withFileStatus(status);
    }
    CompletableFuture<FSDataInputStream> future = ctx.call(b, builder::build);
    return future.handle(
        (in, failure) -> {
          if (failure == null) {
            return ctx.wrapIn(in, p);
          }
          Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
          if (cause instanceof IOException) {
            throw new CompletionException(ctx.translate((IOException) cause, b));
          }
          throw new CompletionException(cause);
        });
  }

  /**
   * The cache understands Hadoop's standard open options; any other mandatory option must be one
   * the backend supports, which only the backend can say: ask its builder, which refuses unknown
   * mandatory keys with {@link IllegalArgumentException}, as an uncached open would.
   */
  private void rejectUnknownMandatoryOptions(Path b, OpenFileParameters parameters)
      throws IOException {
    Configuration options = parameters.getOptions();
    FutureDataInputStreamBuilder check = null;
    for (String key : parameters.getMandatoryKeys()) {
      if (!Options.OpenFileOptions.FS_OPTION_OPENFILE_STANDARD_OPTIONS.contains(key)) {
        if (check == null) {
          check = ctx.call(b, () -> ctx.backend().openFile(b));
        }
        check.must(key, options == null ? "" : options.get(key, ""));
      }
    }
    if (check != null) {
      CompletableFuture<FSDataInputStream> probe = check.build();
      probe.thenAccept(
          in -> {
            try {
              in.close();
            } catch (IOException e) {
              // only a validation probe
            }
          });
    }
  }

  /** The backend's own status for a status a caller supplied, so the backend skips its probe. */
  static FileStatus backendStatusFor(FileStatus supplied, Path backendPath) {
    if (supplied == null) {
      return null;
    }
    if (supplied instanceof BackendStatusHolder) {
      FileStatus original = ((BackendStatusHolder) supplied).backendStatus();
      if (original != null) {
        return original;
      }
    }
    return new FileStatus(
        supplied.getLen(),
        supplied.isDirectory(),
        supplied.getReplication(),
        supplied.getBlockSize(),
        supplied.getModificationTime(),
        backendPath);
  }

  FileStatus getFileStatus(Path f) throws IOException {
    Path p = ctx.readable(f, Op.GET_FILE_STATUS);
    Path b = ctx.toBackend(p);
    OutputHook hook = ctx.tap().hookFor(p);
    if (hook != null) {
      FileStatus hooked = ctx.call(b, () -> hook.getFileStatus(p));
      if (hooked != null) {
        return hooked;
      }
    }
    try {
      // the status is of the path asked for: reuse its canonical dtap form
      return ctx.tap().toDtapStatus(ctx.tap().statusOf(b), ctx.tap().mapper().canonical(p));
    } catch (FileNotFoundException e) {
      if (ctx.isRoot(p)) {
        return ctx.rootStatus(b);
      }
      throw ctx.translate(e, b);
    } catch (IOException e) {
      throw ctx.translate(e, b);
    }
  }

  BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) throws IOException {
    if (file == null) {
      return null;
    }
    if (start < 0 || len < 0) {
      throw new IllegalArgumentException("Invalid start or len parameter");
    }
    Path p = ctx.readable(file.getPath(), Op.GET_FILE_BLOCK_LOCATIONS);
    Path b = ctx.toBackend(p);
    if (file.getLen() <= start && file.getLen() != 0) {
      return new BlockLocation[0];
    }
    FileStatus backendStatus = backendStatusFor(file, b);
    return ctx.call(b, () -> ctx.tap().locations(backendStatus, start, len));
  }

  ContentSummary getContentSummary(Path f) throws IOException {
    Path p = ctx.readable(f, Op.GET_CONTENT_SUMMARY);
    Path b = ctx.toBackend(p);
    try {
      return ctx.backend().getContentSummary(b);
    } catch (FileNotFoundException e) {
      if (ctx.isRoot(p)) {
        return new ContentSummary.Builder().length(0).fileCount(0).directoryCount(1).build();
      }
      throw ctx.translate(e, b);
    } catch (IOException e) {
      throw ctx.translate(e, b);
    }
  }

  Path resolvePath(Path f) throws IOException {
    Path b = ctx.toBackend(ctx.readable(f, Op.GET_FILE_STATUS));
    return ctx.tap().toDtap(ctx.call(b, () -> ctx.backend().resolvePath(b)));
  }
}
