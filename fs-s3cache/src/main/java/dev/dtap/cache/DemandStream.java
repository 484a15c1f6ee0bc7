package dev.dtap.cache;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;

/**
 * The backend stream a reader's misses go through, opened on first use with the caller's read
 * options and reused, so that a sequential pass is one backend read as far as the backend allows.
 * The reader and its readahead share it. A stream that failed a read, by reaching the end too, is
 * let go of before the next read, which opens another: some backend streams (S3A's analytics stream
 * of Hadoop 3.5) count themselves closed after any failure, an EOF included, and would fail the
 * next read. Reads here stop at the length the file's status gave, so an EOF means the object is
 * shorter than that, and a new stream costs one open in a case that is already rare.
 *
 * <p>Thread-safe: one read at a time. {@link #readOn} relies on it: the backend stream's position
 * is only moved under this object's lock, as backend streams are not all safe for concurrent seeks
 * and reads.
 */
final class DemandStream {
  private final BackendSource source;
  private final Executor closer;
  private final Supplier<IOException> closedError;
  private Backend current;
  private boolean closed;

  /** Where the last {@link #readOn} ended: a read starting there continues a pass. */
  private long passEnd = -1;

  /** Streams let go of by {@link #release()} whose vectored ranges have not all completed. */
  private final Set<Backend> detached = ConcurrentHashMap.newKeySet();

  /**
   * @param source opens backend streams
   * @param closer runs the close of a released stream once its last range completes, off the
   *     backend's thread that completed it; a rejected task closes on that thread
   * @param closedError the error of a read after {@link #close()}
   */
  DemandStream(BackendSource source, Executor closer, Supplier<IOException> closedError) {
    this.source = source;
    this.closer = closer;
    this.closedError = closedError;
  }

  private Backend backend() throws IOException {
    if (closed) {
      // a positioned read racing the reader's close: opening another stream would leak it
      throw closedError.get();
    }
    if (current != null && current.failed) {
      release();
    }
    if (current == null) {
      current = new Backend(source.open(null));
    }
    return current;
  }

  /** Marks the stream failed, and hands the failure back. */
  private static IOException failed(Backend b, IOException e) {
    b.failed = true;
    return e;
  }

  /**
   * Reads exactly {@code len} bytes at {@code position}, as one positioned read of the backend.
   *
   * @throws IOException on backend failure, or EOF before the range ends
   */
  synchronized void readFully(long position, byte[] buf, int off, int len) throws IOException {
    Backend b = backend();
    try {
      BackendSource.readFully(b.in, position, buf, off, len);
    } catch (IOException e) {
      throw failed(b, e);
    }
  }

  /**
   * Reads exactly {@code len} bytes at {@code position} for a reader streaming through uncached
   * bytes. A read that continues the previous one reads on from there with the backend stream's own
   * sequential read (seeking it there first if a positioned read left it elsewhere); any other read
   * is one positioned read of exactly its range. A pass of small reads is then the backend's
   * sequential read, as without the cache: a positioned read per call would reopen a local or NFS
   * file (and its checksum file) each time, and ask HDFS for a new block reader each time.
   *
   * @throws IOException on backend failure, or EOF before the range ends
   */
  synchronized void readOn(long position, byte[] buf, int off, int len) throws IOException {
    Backend b = backend();
    FSDataInputStream in = b.in;
    boolean continues = position == passEnd;
    passEnd = position + len;
    boolean positioned = false;
    try {
      if (in.getPos() != position) {
        if (!continues) {
          positioned = true;
          BackendSource.readFully(in, position, buf, off, len);
          return;
        }
        in.seek(position);
      }
      in.readFully(buf, off, len); // DataInputStream's: reads on until len bytes or the end
    } catch (EOFException e) {
      passEnd = -1;
      if (positioned) {
        throw failed(b, e); // BackendSource's EOF already names the range the read wanted
      }
      EOFException eof =
          new EOFException("Backend ended at " + offsetOf(in) + " before " + (position + len));
      eof.initCause(e);
      throw failed(b, eof);
    } catch (IOException e) {
      passEnd = -1;
      throw failed(b, e);
    }
  }

  /** Where a stream stands, for a message: a stream that failed may not know any more. */
  private static String offsetOf(FSDataInputStream in) {
    try {
      return Long.toString(in.getPos());
    } catch (IOException e) {
      return "an unknown offset";
    }
  }

  /**
   * Starts a vectored read on the backend stream. The backend completes the ranges, possibly after
   * this returns; {@link #close()} before they land may fail them, {@link #release()} does not.
   *
   * @throws IOException if the backend refuses the read
   */
  synchronized void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate)
      throws IOException {
    Backend b = backend();
    try {
      b.in.readVectored(ranges, allocate);
    } catch (IOException e) {
      throw failed(b, e);
    }
    for (FileRange r : ranges) {
      b.outstanding.incrementAndGet();
      // the callback holds the stream, never the range's buffer
      r.getData().whenComplete((data, failure) -> b.rangeDone(failure));
    }
  }

  /**
   * Lets go of the backend stream without failing reads in flight: the next read opens another, and
   * this one is closed once the vectored ranges started on it have completed. That is what {@code
   * unbuffer()} promises: buffers and connections released, every read already asked for still
   * answered.
   */
  synchronized void release() {
    if (current != null) {
      Backend b = current;
      current = null;
      passEnd = -1;
      detached.add(b);
      b.released = true;
      if (b.outstanding.get() == 0) {
        b.close();
      }
    }
  }

  /**
   * Closes the backend stream and any released ones still waiting for their ranges, now: ranges
   * still in flight on them may fail.
   */
  synchronized void close() {
    closed = true;
    if (current != null) {
      current.close();
      current = null;
    }
    for (Backend b : detached) {
      b.close();
    }
  }

  /** One backend stream and the vectored ranges outstanding on it. */
  private final class Backend {
    final FSDataInputStream in;
    final AtomicInteger outstanding = new AtomicInteger();
    final AtomicBoolean closed = new AtomicBoolean();
    volatile boolean released;

    /** A read failed on it: the next read opens another stream. */
    volatile boolean failed;

    Backend(FSDataInputStream in) {
      this.in = in;
    }

    void rangeDone(Throwable failure) {
      if (failure != null) {
        failed = true;
      }
      if (outstanding.decrementAndGet() == 0 && released) {
        try {
          // not on the thread completing the last range: that is the backend's own, and a
          // backend whose close() waits for its reads in flight would wait for itself
          closer.execute(this::close);
        } catch (RejectedExecutionException e) {
          close();
        }
      }
    }

    void close() {
      if (closed.compareAndSet(false, true)) {
        detached.remove(this);
        try {
          in.close();
        } catch (IOException e) {
          // a read stream; nothing to lose
        }
      }
    }
  }
}
