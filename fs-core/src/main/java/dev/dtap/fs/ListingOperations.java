package dev.dtap.fs;

import dev.dtap.fs.DataTapStatistics.Op;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Directory listings on a tap. Iterators keep the backend's paging; with the locality resolver,
 * located listings are plain listings plus locally computed locations. Thread-safe.
 */
final class ListingOperations {
  private final OpContext ctx;

  ListingOperations(OpContext ctx) {
    this.ctx = ctx;
  }

  FileStatus[] listStatus(Path f) throws IOException {
    Path p = ctx.readable(f, Op.LIST_STATUS);
    Path b = ctx.toBackend(p);
    FileStatus[] listed;
    try {
      listed = ctx.tap().listingOf(b);
    } catch (FileNotFoundException e) {
      if (ctx.isRoot(p)) {
        return new FileStatus[0];
      }
      throw ctx.translate(e, b);
    } catch (IOException e) {
      throw ctx.translate(e, b);
    }
    FileStatus[] out = new FileStatus[listed.length];
    for (int i = 0; i < listed.length; i++) {
      out[i] = ctx.tap().toDtapStatus(listed[i]);
    }
    return out;
  }

  RemoteIterator<FileStatus> listStatusIterator(Path f) throws IOException {
    Path b = ctx.toBackend(ctx.readable(f, Op.LIST_STATUS));
    Tap tap = ctx.tap();
    return new MappedIterator<>(
        ctx.call(b, () -> ctx.backend().listStatusIterator(b)),
        tap::toDtapStatus,
        null,
        FileStatus::getPath,
        e -> ctx.translate(e, b));
  }

  RemoteIterator<LocatedFileStatus> listLocatedStatus(Path f, PathFilter filter)
      throws IOException {
    Path b = ctx.toBackend(ctx.readable(f, Op.LIST_LOCATED_STATUS));
    Tap tap = ctx.tap();
    if (tap.hasLocalityResolver()) {
      // Locations come from the resolver: a plain paged listing, no per-file location calls.
      return new MappedIterator<>(
          ctx.call(b, () -> ctx.backend().listStatusIterator(b)),
          tap::toDtapLocated,
          filter,
          FileStatus::getPath,
          e -> ctx.translate(e, b));
    }
    ctx.iostats().increment(DataTapStatistics.BACKEND_LIST_LOCATED_CALLS);
    return new MappedIterator<>(
        ctx.call(b, () -> ctx.backend().listLocatedStatus(b)),
        tap::toDtapLocated,
        filter,
        FileStatus::getPath,
        e -> ctx.translate(e, b));
  }

  RemoteIterator<LocatedFileStatus> listFiles(Path f, boolean recursive) throws IOException {
    Path b = ctx.toBackend(ctx.readable(f, Op.LIST_FILES));
    Tap tap = ctx.tap();
    if (!tap.hasLocalityResolver()) {
      ctx.iostats().increment(DataTapStatistics.BACKEND_LIST_LOCATED_CALLS);
    }
    // The backend's own listFiles keeps its flat listing (one LIST per 1000 keys on S3A); with
    // the resolver, toDtapLocated replaces the backend's locations.
    return new MappedIterator<>(
        ctx.call(b, () -> ctx.backend().listFiles(b, recursive)),
        tap::toDtapLocated,
        null,
        FileStatus::getPath,
        e -> ctx.translate(e, b));
  }

  RemoteIterator<Path> listCorruptFileBlocks(Path f) throws IOException {
    Path b = ctx.toBackend(ctx.readable(f, Op.LIST_STATUS));
    Tap tap = ctx.tap();
    return new MappedIterator<>(
        ctx.call(b, () -> ctx.backend().listCorruptFileBlocks(b)),
        tap::toDtap,
        null,
        x -> x,
        e -> ctx.translate(e, b));
  }
}
