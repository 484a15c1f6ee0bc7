package dev.dtap.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanSetDropBehind;
import org.apache.hadoop.fs.CanSetReadahead;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * The read stream of a tap: every call goes to the backend's stream (or the read cache's), bytes
 * are counted in the dtap scheme's statistics, and exceptions are rewritten to speak dtap.
 *
 * <p>Capabilities (byte-buffer reads, positioned byte-buffer reads, unbuffer, readahead,
 * drop-behind, vectored reads, IOStatistics) are advertised exactly when the stream underneath
 * serves them: for the optional interfaces, when the innermost stream implements the interface and
 * advertises the capability (some Hadoop streams, such as ChecksumFileSystem's, pass on a
 * capability of the stream they wrap without implementing its interface, and readers such as
 * Parquet then fail). The byte-buffer interfaces are also <em>implemented</em> exactly when served,
 * for readers that decide by {@code instanceof} (Parquet does, after asking the capability): {@link
 * #open} picks the class. A byte-buffer read the stream underneath does not serve fails with {@link
 * UnsupportedOperationException}, as Hadoop's own streams do. Like every Hadoop input stream, not
 * thread-safe except for the positioned reads, which are as safe as the wrapped stream's.
 */
class DataTapInputStream extends FSInputStream
    implements CanUnbuffer,
        CanSetReadahead,
        CanSetDropBehind,
        StreamCapabilities,
        IOStatisticsSource {
  private final FSDataInputStream in;
  private final ExceptionTranslator errors;
  private final IntConsumer bytesRead;
  private final String description;

  private DataTapInputStream(
      FSDataInputStream in, ExceptionTranslator errors, IntConsumer bytesRead, String description) {
    this.in = in;
    this.errors = errors;
    this.bytesRead = bytesRead;
    this.description = description;
  }

  /**
   * Wraps a backend (or cache) stream in the stream class whose interfaces are those the stream
   * underneath serves.
   *
   * @param in the stream underneath
   * @param errors rewrites its exceptions
   * @param bytesRead counts the bytes read (the scheme's and the tap's statistics)
   * @param description the dtap path, for messages
   * @return the tap's stream
   */
  static DataTapInputStream open(
      FSDataInputStream in, ExceptionTranslator errors, IntConsumer bytesRead, String description) {
    boolean buffers = serves(in, ByteBufferReadable.class);
    boolean positioned = serves(in, ByteBufferPositionedReadable.class);
    if (buffers && positioned) {
      return new AllByteBuffers(in, errors, bytesRead, description);
    } else if (buffers) {
      return new ByteBuffers(in, errors, bytesRead, description);
    } else if (positioned) {
      return new PositionedByteBuffers(in, errors, bytesRead, description);
    }
    return new DataTapInputStream(in, errors, bytesRead, description);
  }

  /** A tap's stream over one that serves byte-buffer reads. */
  static final class ByteBuffers extends DataTapInputStream implements ByteBufferReadable {
    ByteBuffers(
        FSDataInputStream in,
        ExceptionTranslator errors,
        IntConsumer bytesRead,
        String description) {
      super(in, errors, bytesRead, description);
    }
  }

  /** A tap's stream over one that serves positioned byte-buffer reads. */
  static final class PositionedByteBuffers extends DataTapInputStream
      implements ByteBufferPositionedReadable {
    PositionedByteBuffers(
        FSDataInputStream in,
        ExceptionTranslator errors,
        IntConsumer bytesRead,
        String description) {
      super(in, errors, bytesRead, description);
    }
  }

  /** A tap's stream over one that serves both kinds of byte-buffer reads. */
  static final class AllByteBuffers extends DataTapInputStream
      implements ByteBufferReadable, ByteBufferPositionedReadable {
    AllByteBuffers(
        FSDataInputStream in,
        ExceptionTranslator errors,
        IntConsumer bytesRead,
        String description) {
      super(in, errors, bytesRead, description);
    }
  }

  /**
   * @return the wrapped stream, for tests and the read cache
   */
  FSDataInputStream wrapped() {
    return in;
  }

  private void count(int n) {
    if (n > 0) {
      bytesRead.accept(n);
    }
  }

  @Override
  public int read() throws IOException {
    try {
      int b = in.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    try {
      int n = in.read(b, off, len);
      count(n);
      return n;
    } catch (IOException e) {
      throw failure(e);
    }
  }

  /** {@link ByteBufferReadable#read}, for the classes that implement it. */
  public int read(ByteBuffer buf) throws IOException {
    if (!serves(ByteBufferReadable.class)) {
      throw new UnsupportedOperationException(
          "Byte-buffer read unsupported by the stream of " + description);
    }
    try {
      int n = in.read(buf);
      count(n);
      return n;
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public long skip(long n) throws IOException {
    try {
      return in.skip(n);
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public int available() throws IOException {
    try {
      return in.available();
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public void seek(long pos) throws IOException {
    try {
      in.seek(pos);
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public long getPos() throws IOException {
    try {
      return in.getPos();
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public boolean seekToNewSource(long targetPos) throws IOException {
    try {
      return in.seekToNewSource(targetPos);
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    try {
      int n = in.read(position, buffer, offset, length);
      count(n);
      return n;
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    try {
      in.readFully(position, buffer, offset, length);
      count(length);
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }

  /** {@link ByteBufferPositionedReadable#read}, for the classes that implement it. */
  public int read(long position, ByteBuffer buf) throws IOException {
    if (!serves(ByteBufferPositionedReadable.class)) {
      throw new UnsupportedOperationException(
          "Positioned byte-buffer read unsupported by the stream of " + description);
    }
    try {
      int n = in.read(position, buf);
      count(n);
      return n;
    } catch (IOException e) {
      throw failure(e);
    }
  }

  /** {@link ByteBufferPositionedReadable#readFully}, for the classes that implement it. */
  public void readFully(long position, ByteBuffer buf) throws IOException {
    if (!serves(ByteBufferPositionedReadable.class)) {
      throw new UnsupportedOperationException(
          "Positioned byte-buffer read unsupported by the stream of " + description);
    }
    int n = buf.remaining();
    try {
      in.readFully(position, buf);
      count(n);
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public int minSeekForVectorReads() {
    return in.minSeekForVectorReads();
  }

  @Override
  public int maxReadSizeForVectorReads() {
    return in.maxReadSizeForVectorReads();
  }

  @Override
  public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate)
      throws IOException {
    List<FileRange> copies = new ArrayList<>(ranges.size());
    for (FileRange r : ranges) {
      copies.add(FileRange.createFileRange(r.getOffset(), r.getLength(), r.getReference()));
    }
    try {
      in.readVectored(copies, allocate);
    } catch (IOException e) {
      throw failure(e);
    }
    for (int i = 0; i < ranges.size(); i++) {
      FileRange ours = ranges.get(i);
      CompletableFuture<ByteBuffer> data =
          RangeRetry.retryingOnce(copies.get(i).getData(), copies.get(i), in, allocate);
      ours.setData(data.handle((buf, failure) -> complete(buf, failure, ours.getLength())));
    }
  }

  /** The backend's exception rewritten to speak dtap and to name this stream's path. */
  private IOException failure(IOException e) {
    return errors.translate(e, description);
  }

  private ByteBuffer complete(ByteBuffer buf, Throwable failure, int length) {
    if (failure == null) {
      count(length);
      return buf;
    }
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    if (cause instanceof IOException) {
      throw new CompletionException(failure((IOException) cause));
    }
    throw new CompletionException(cause);
  }

  @Override
  public void unbuffer() {
    in.unbuffer();
  }

  @Override
  public void setReadahead(Long readahead) throws IOException {
    try {
      in.setReadahead(readahead);
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public void setDropBehind(Boolean dropCache) throws IOException {
    try {
      in.setDropBehind(dropCache);
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(Locale.ENGLISH)) {
      case StreamCapabilities.READBYTEBUFFER:
        return serves(ByteBufferReadable.class) && in.hasCapability(capability);
      case StreamCapabilities.PREADBYTEBUFFER:
        return serves(ByteBufferPositionedReadable.class) && in.hasCapability(capability);
      case StreamCapabilities.UNBUFFER:
        return serves(CanUnbuffer.class) && in.hasCapability(capability);
      case StreamCapabilities.READAHEAD:
        return serves(CanSetReadahead.class) && in.hasCapability(capability);
      case StreamCapabilities.DROPBEHIND:
        return serves(CanSetDropBehind.class) && in.hasCapability(capability);
      default:
        return in.hasCapability(capability);
    }
  }

  /**
   * @return whether the innermost stream underneath implements an optional interface
   */
  private boolean serves(Class<?> optional) {
    return serves(in, optional);
  }

  private static boolean serves(FSDataInputStream in, Class<?> optional) {
    InputStream s = in.getWrappedStream();
    while (s instanceof FSDataInputStream) {
      s = ((FSDataInputStream) s).getWrappedStream();
    }
    return optional.isInstance(s);
  }

  @Override
  public IOStatistics getIOStatistics() {
    return in.getIOStatistics();
  }

  @Override
  public void close() throws IOException {
    try {
      in.close();
    } catch (IOException e) {
      throw failure(e);
    }
  }

  @Override
  public String toString() {
    return "DataTapInputStream{" + description + "}";
  }
}
