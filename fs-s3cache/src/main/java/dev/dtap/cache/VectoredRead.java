package dev.dtap.cache;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.FileRange;

/**
 * One {@code readVectored} call on a {@link CachingInputStream}: ranges whose pages are cached are
 * served locally; the pages the others need are loaded with as few backend reads as possible
 * (adjacent missing pages form one ranged read) and stored, then those ranges are served from them.
 * Every range's future is complete when {@link #run()} returns.
 */
final class VectoredRead {
  private final CachingInputStream in;
  private final List<? extends FileRange> ranges;
  private final IntFunction<ByteBuffer> allocate;
  private final long length;
  private final int pageSize;

  VectoredRead(
      CachingInputStream in,
      List<? extends FileRange> ranges,
      IntFunction<ByteBuffer> allocate,
      long length,
      int pageSize) {
    this.in = in;
    this.ranges = ranges;
    this.allocate = allocate;
    this.length = length;
    this.pageSize = pageSize;
  }

  void run() throws IOException {
    List<FileRange> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingLong(FileRange::getOffset));
    long previousEnd = -1;
    for (FileRange r : sorted) {
      if (r.getLength() < 0) {
        throw new IllegalArgumentException("Invalid range " + r + ": negative length");
      }
      if (r.getOffset() < 0) {
        throw new EOFException("Invalid range " + r + ": negative offset");
      }
      if (r.getOffset() + r.getLength() > length) {
        throw new EOFException(
            "Range " + r + " is beyond the end of the file (" + length + " bytes)");
      }
      if (r.getOffset() < previousEnd) {
        throw new IllegalArgumentException(
            "Overlapping ranges " + r + " and one ending at " + previousEnd);
      }
      previousEnd = r.getOffset() + r.getLength();
    }
    for (FileRange r : ranges) {
      r.setData(new CompletableFuture<>());
    }
    List<FileRange> pending = new ArrayList<>();
    for (FileRange r : sorted) {
      byte[] data = new byte[r.getLength()];
      if (in.readCached(r.getOffset(), data, data.length)) {
        complete(r, data);
      } else {
        pending.add(r);
      }
    }
    if (pending.isEmpty()) {
      return;
    }
    // pages the pending ranges need and nobody has, merged into runs of adjacent pages
    long runStart = -1;
    long runEnd = -1;
    for (FileRange r : pending) {
      long first = r.getOffset() / pageSize;
      long last = r.getLength() == 0 ? first : (r.getOffset() + r.getLength() - 1) / pageSize;
      for (long p = first; p <= last; p++) {
        if (in.pageAvailable(p)) {
          continue;
        }
        if (runStart >= 0 && p == runEnd + 1) {
          runEnd = p;
        } else if (runStart < 0 || p > runEnd) {
          if (runStart >= 0) {
            in.loadPages(runStart, runEnd);
          }
          runStart = p;
          runEnd = p;
        }
      }
    }
    if (runStart >= 0) {
      in.loadPages(runStart, runEnd);
    }
    for (FileRange r : pending) {
      byte[] data = new byte[r.getLength()];
      try {
        in.readFully(r.getOffset(), data, 0, data.length);
        complete(r, data);
      } catch (IOException e) {
        r.getData().completeExceptionally(e);
      }
    }
  }

  private void complete(FileRange r, byte[] data) {
    ByteBuffer buf = allocate.apply(data.length);
    buf.put(data);
    buf.flip();
    r.getData().complete(buf);
  }
}
