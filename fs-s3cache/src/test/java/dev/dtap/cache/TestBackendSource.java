package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.testing.CapabilityFileSystem;
import dev.dtap.fs.testing.LocalTaps;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.impl.OpenFileParameters;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A page fill asks the backend for its range as one vectored range, never as a positioned or
 * sequential read that a stream may widen by read-ahead, and takes the bytes whatever buffer the
 * backend hands back.
 */
class TestBackendSource {
  private static final int LENGTH = 3 * CacheTestSupport.PAGE + 17;

  private byte[] data;
  private Path path;

  @BeforeEach
  void setUp() throws IOException {
    File root = LocalTaps.newDir("backendsource");
    data = CacheTestSupport.randomFile(new File(root, "f.bin"), LENGTH, 5);
    path = new Path(new File(root, "f.bin").toURI());
  }

  @Test
  void aFillIsOneVectoredRangeAndNoOtherRead() throws IOException {
    RecordingFileSystem fs = new RecordingFileSystem(Answer.INTO_CALLERS_BUFFER);
    BackendSource source = source(fs);
    int pos = CacheTestSupport.PAGE + 3;

    byte[] got = source.readRange(pos, CacheTestSupport.PAGE);

    assertThat(got).isEqualTo(Arrays.copyOfRange(data, pos, pos + CacheTestSupport.PAGE));
    assertThat(fs.vectored).containsExactly(pos + "+" + CacheTestSupport.PAGE);
    assertThat(fs.otherReads).as("positioned or sequential reads").isZero();
    assertThat(fs.policies).containsExactly("random");
  }

  @Test
  void bytesInABufferOfTheBackendsOwnAreCopied() throws IOException {
    RecordingFileSystem fs = new RecordingFileSystem(Answer.SLICE_OF_ITS_OWN);
    int pos = 2 * CacheTestSupport.PAGE;
    int len = LENGTH - pos;

    byte[] got = source(fs).readRange(pos, len);

    assertThat(got).isEqualTo(Arrays.copyOfRange(data, pos, LENGTH));
  }

  @Test
  void aShortAnswerIsAnEofNotAPageOfZeros() {
    RecordingFileSystem fs = new RecordingFileSystem(Answer.SHORT);

    assertThatThrownBy(() -> source(fs).readRange(0, CacheTestSupport.PAGE))
        .isInstanceOf(EOFException.class)
        .hasMessageContaining("of " + CacheTestSupport.PAGE + " bytes at 0");
  }

  @Test
  void theReadersBackendStreamRefusesReadsOnceClosedAndOpensNoOther() throws IOException {
    RecordingFileSystem fs = new RecordingFileSystem(Answer.INTO_CALLERS_BUFFER);
    DemandStream demand =
        new DemandStream(
            source(fs), Runnable::run, () -> new IOException("Stream is closed: dtap://t/f.bin"));
    byte[] buf = new byte[10];
    demand.readFully(5, buf, 0, 10);
    assertThat(buf).isEqualTo(Arrays.copyOfRange(data, 5, 15));

    // a positioned read may reach the backend stream after another thread closed the reader
    demand.close();

    assertThatThrownBy(() -> demand.readFully(5, buf, 0, 10))
        .isInstanceOf(IOException.class)
        .hasMessage("Stream is closed: dtap://t/f.bin");
    assertThatThrownBy(
            () ->
                demand.readVectored(
                    List.of(FileRange.createFileRange(0, 10)), ByteBuffer::allocate))
        .hasMessage("Stream is closed: dtap://t/f.bin");
    assertThat(fs.policies).as("backend streams opened").hasSize(1);
  }

  @Test
  void aPassOfSmallReadsIsTheBackendsSequentialReadAndAJumpOnePositionedRead() throws IOException {
    RecordingFileSystem fs = new RecordingFileSystem(Answer.INTO_CALLERS_BUFFER);
    DemandStream demand =
        new DemandStream(source(fs), Runnable::run, () -> new IOException("closed"));
    byte[] got = new byte[LENGTH];
    for (int pos = 0; pos < 1000; pos++) {
      demand.readOn(pos, got, pos, 1);
    }
    assertThat(fs.positioned).as("positioned reads of a pass from the start").isZero();

    demand.readOn(2000, got, 2000, 100);
    assertThat(fs.positioned).as("a jump is one positioned read").isEqualTo(1);
    // the pass goes on from its new place: the stream is sought there once and read on
    for (int pos = 2100; pos < LENGTH; pos += 7) {
      demand.readOn(pos, got, pos, Math.min(7, LENGTH - pos));
    }
    demand.readOn(1000, got, 1000, 1000);

    assertThat(got).isEqualTo(data);
    assertThat(fs.positioned).as("positioned reads: the two jumps").isEqualTo(2);
    assertThat(fs.policies).as("backend streams opened").hasSize(1);
    // a pass that runs off the end: seeks back to where it left off, reads on, and meets EOF
    assertThatThrownBy(() -> demand.readOn(2000, new byte[LENGTH], 0, LENGTH - 2000 + 5))
        .isInstanceOf(EOFException.class)
        .hasMessage("Backend ended at " + LENGTH + " before " + (LENGTH + 5));
    assertThat(fs.positioned).as("positioned reads after the pass off the end").isEqualTo(2);
    assertThat(fs.policies).as("backend streams opened before the EOF").hasSize(1);
    // the stream that met the end is let go: a read after it is no continuation, and the new
    // stream stands at 0, so it is one positioned read
    assertThatThrownBy(() -> demand.readOn(LENGTH - 5, new byte[10], 0, 10))
        .isInstanceOf(EOFException.class)
        .hasMessageContaining("before " + (LENGTH + 5));
    assertThat(fs.policies).as("backend streams opened after the EOF").hasSize(2);
    assertThat(fs.positioned)
        .as("the positioned readFully: its 5 bytes, then the end")
        .isEqualTo(4);
    // no continuation, but the new stream stands where the read starts: it reads on; the pass then
    // runs off the end and says where it ended
    demand.readOn(0, got, 0, LENGTH - 5);
    assertThatThrownBy(() -> demand.readOn(LENGTH - 5, new byte[10], 0, 10))
        .isInstanceOf(EOFException.class)
        .hasMessage("Backend ended at " + LENGTH + " before " + (LENGTH + 5));
    assertThat(fs.positioned).as("positioned reads after reading on at the end").isEqualTo(4);
  }

  @Test
  void aStreamThatFailedAReadIsLetGoAndTheNextReadOpensAnother() throws IOException {
    RecordingFileSystem fs = new RecordingFileSystem(Answer.INTO_CALLERS_BUFFER);
    DemandStream demand =
        new DemandStream(source(fs), Runnable::run, () -> new IOException("closed"));
    byte[] got = new byte[LENGTH];
    demand.readOn(0, got, 0, 100);

    fs.failNextRead = true;
    assertThatThrownBy(() -> demand.readOn(100, got, 100, 100))
        .isInstanceOf(IOException.class)
        .hasMessage("connection reset");
    // the failed stream counts itself closed, as S3A's analytics stream does after a failure
    demand.readOn(100, got, 100, 100);
    fs.failNextRead = true;
    assertThatThrownBy(() -> demand.readFully(1000, got, 1000, 100)).hasMessage("connection reset");
    demand.readFully(200, got, 200, LENGTH - 200);

    assertThat(got).isEqualTo(data);
    assertThat(fs.policies).as("backend streams opened: one per failure, and the first").hasSize(3);
    assertThat(fs.closed).as("failed streams closed").isEqualTo(2);

    // an EOF lets the stream go too: the analytics stream counts itself closed after one
    fs.deadAfterEof = true;
    assertThatThrownBy(() -> demand.readFully(LENGTH - 5, new byte[10], 0, 10))
        .isInstanceOf(EOFException.class);
    demand.readOn(0, got, 0, 10);
    assertThat(fs.policies).as("a stream opened after a positioned read's EOF").hasSize(4);
    // a pass that runs off the end, read on from where the last read ended
    assertThatThrownBy(() -> demand.readOn(10, new byte[LENGTH], 0, LENGTH))
        .isInstanceOf(EOFException.class);
    demand.readFully(0, got, 0, LENGTH);
    assertThat(fs.policies).as("a stream opened after a pass's EOF").hasSize(5);
    assertThat(fs.closed).as("every stream let go is closed").isEqualTo(4);
    assertThat(got).isEqualTo(data);
  }

  private BackendSource source(RecordingFileSystem fs) throws IOException {
    fs.initialize(path.toUri(), new Configuration(false));
    return new BackendSource(fs, path, fs.getFileStatus(path), new Configuration(false));
  }

  /** How the fake backend answers a vectored range. */
  private enum Answer {
    INTO_CALLERS_BUFFER,
    SLICE_OF_ITS_OWN,
    SHORT
  }

  /** A local filesystem whose streams record how they are read. Not thread-safe. */
  private static final class RecordingFileSystem extends RawLocalFileSystem {
    private final Answer answer;
    final List<String> vectored = new ArrayList<>();
    final List<String> policies = new ArrayList<>();
    int otherReads;
    int positioned;
    int closed;

    /** Fails the next positioned or sequential read, after which the stream refuses every read. */
    boolean failNextRead;

    /** A stream that reached the end refuses every later read, as S3A 3.5's analytics stream. */
    boolean deadAfterEof;

    RecordingFileSystem(Answer answer) {
      this.answer = answer;
    }

    @Override
    protected CompletableFuture<FSDataInputStream> openFileWithOptions(
        Path file, OpenFileParameters parameters) throws IOException {
      policies.add(parameters.getOptions().get(BackendSource.READ_POLICY));
      return CompletableFuture.completedFuture(open(file, 4096));
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
      byte[] bytes = java.nio.file.Files.readAllBytes(pathToFile(f).toPath());
      return new FSDataInputStream(new Stream(bytes));
    }

    private final class Stream extends CapabilityFileSystem.Bare {
      private boolean dead;

      Stream(byte[] bytes) {
        super(bytes);
      }

      private void failIfAsked() throws IOException {
        if (dead) {
          throw new IOException("stream closed after an earlier failure");
        }
        if (failNextRead) {
          failNextRead = false;
          dead = true;
          throw new IOException("connection reset");
        }
      }

      @Override
      public void close() throws IOException {
        closed++;
        super.close();
      }

      @Override
      public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate) {
        for (FileRange r : ranges) {
          vectored.add(r.getOffset() + "+" + r.getLength());
          int off = (int) r.getOffset();
          int len = answer == Answer.SHORT ? r.getLength() / 2 : r.getLength();
          ByteBuffer out;
          if (answer == Answer.SLICE_OF_ITS_OWN) {
            byte[] own = new byte[len + 11];
            System.arraycopy(data, off, own, 11, len);
            out = ByteBuffer.wrap(own, 11, len).slice();
          } else {
            out = allocate.apply(len);
            out.put(data, off, len);
            out.flip();
          }
          r.setData(CompletableFuture.completedFuture(out));
        }
      }

      @Override
      public int read(long position, byte[] buffer, int offset, int length) throws IOException {
        failIfAsked();
        otherReads++;
        positioned++;
        if (position >= data.length) {
          dead = deadAfterEof;
          return -1;
        }
        int n = Math.min(length, data.length - (int) position);
        System.arraycopy(data, (int) position, buffer, offset, n);
        return n;
      }

      @Override
      public int read() throws IOException {
        otherReads++;
        return super.read();
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        failIfAsked();
        otherReads++;
        int n = super.read(b, off, len);
        dead = n < 0 && deadAfterEof;
        return n;
      }
    }
  }
}
