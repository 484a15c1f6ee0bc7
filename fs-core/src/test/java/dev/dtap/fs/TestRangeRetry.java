package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.PositionedReadable;
import org.junit.jupiter.api.Test;

/** A vectored range that failed is read once more, positioned; a missing file is not. */
class TestRangeRetry {
  private static final byte[] FILE = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  /** The file above; its positioned reads fail with {@code failure} when it is set. */
  private static final class Positioned implements PositionedReadable {
    final AtomicInteger reads = new AtomicInteger();
    IOException failure;

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      readFully(position, buffer, offset, length);
      return length;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      reads.incrementAndGet();
      if (failure != null) {
        throw failure;
      }
      System.arraycopy(FILE, (int) position, buffer, offset, length);
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      readFully(position, buffer, 0, buffer.length);
    }
  }

  private static CompletableFuture<ByteBuffer> failed(IOException e) {
    return CompletableFuture.failedFuture(e);
  }

  @Test
  void aRangeCutShortIsReadAgain() throws Exception {
    Positioned in = new Positioned();
    FileRange range = FileRange.createFileRange(4, 6);
    ByteBuffer got =
        RangeRetry.retryingOnce(
                failed(new SocketException("Connection reset")), range, in, ByteBuffer::allocate)
            .get();
    assertThat(in.reads).hasValue(1);
    byte[] bytes = new byte[got.remaining()];
    got.get(bytes);
    assertThat(new String(bytes, StandardCharsets.US_ASCII)).isEqualTo("456789");
  }

  @Test
  void aRangeThatWorkedIsNotReadAgain() throws Exception {
    Positioned in = new Positioned();
    ByteBuffer first = ByteBuffer.wrap(new byte[] {1});
    assertThat(
            RangeRetry.retryingOnce(
                    CompletableFuture.completedFuture(first),
                    FileRange.createFileRange(0, 1),
                    in,
                    ByteBuffer::allocate)
                .get())
        .isSameAs(first);
    assertThat(in.reads).hasValue(0);
  }

  @Test
  void aMissingFileIsNotReadAgain() {
    Positioned in = new Positioned();
    FileNotFoundException gone = new FileNotFoundException("gone");
    assertThatThrownBy(
            () ->
                RangeRetry.retryingOnce(
                        failed(gone), FileRange.createFileRange(0, 1), in, ByteBuffer::allocate)
                    .get())
        .isInstanceOf(ExecutionException.class)
        .hasCause(gone);
    assertThat(in.reads).hasValue(0);
  }

  @Test
  void aSecondFailureCarriesTheFirst() {
    Positioned in = new Positioned();
    in.failure = new SocketException("again");
    SocketException first = new SocketException("Connection reset");
    assertThatThrownBy(
            () ->
                RangeRetry.retryingOnce(
                        failed(first), FileRange.createFileRange(0, 1), in, ByteBuffer::allocate)
                    .get())
        .hasCause(in.failure)
        .satisfies(e -> assertThat(e.getCause().getSuppressed()).containsExactly(first));
    assertThat(in.reads).hasValue(1);
  }

  @Test
  void aTimeoutIsRetriedAnInterruptIsNot() {
    assertThat(RangeRetry.worthRetrying(new SocketTimeoutException("read timed out"))).isTrue();
    assertThat(RangeRetry.worthRetrying(new InterruptedIOException("interrupted"))).isFalse();
    assertThat(RangeRetry.worthRetrying(new RuntimeException("not I/O"))).isFalse();
  }
}
