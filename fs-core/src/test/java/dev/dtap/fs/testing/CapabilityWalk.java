package dev.dtap.fs.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * Walks every optional capability of an open stream: calls it, and checks that the stream
 * advertises it ({@code hasCapability}) exactly when the call works and, for the byte-buffer reads
 * that readers such as Parquet choose by {@code instanceof}, that the wrapped stream implements the
 * interface exactly then. Vectored reads and {@code unbuffer} must work on every stream (natively
 * or through Hadoop's fallback). Shared by the unit test of local backends and the integration test
 * of HDFS, S3 and cached taps.
 */
public final class CapabilityWalk {
  /** What the walked file must hold. */
  public static final byte[] DATA =
      "0123456789abcdefghijklmnopqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);

  private CapabilityWalk() {}

  /**
   * @param label names the stream in assertion messages
   * @param in a stream of a file holding {@link #DATA}
   * @return by capability, whether it is served
   * @throws Exception if a served operation fails
   */
  public static Map<String, Boolean> walk(String label, FSDataInputStream in) throws Exception {
    Map<String, Boolean> served = new LinkedHashMap<>();
    served.put(
        StreamCapabilities.READBYTEBUFFER,
        works(
            () -> {
              ByteBuffer b = ByteBuffer.allocate(4);
              in.seek(0);
              assertThat(in.read(b)).isEqualTo(4);
              assertThat(new String(b.array(), StandardCharsets.US_ASCII)).isEqualTo("0123");
            }));
    served.put(
        StreamCapabilities.PREADBYTEBUFFER,
        works(
            () -> {
              ByteBuffer b = ByteBuffer.allocate(3);
              in.readFully(10, b);
              assertThat(new String(b.array(), StandardCharsets.US_ASCII)).isEqualTo("abc");
            }));
    served.put(StreamCapabilities.READAHEAD, works(() -> in.setReadahead(1024L)));
    served.put(StreamCapabilities.DROPBEHIND, works(() -> in.setDropBehind(true)));
    for (Map.Entry<String, Boolean> e : served.entrySet()) {
      assertThat(in.hasCapability(e.getKey()))
          .as(label + ": " + e.getKey() + " advertised exactly when it works")
          .isEqualTo(e.getValue());
    }
    assertThat(in.getWrappedStream() instanceof ByteBufferReadable)
        .as(label + ": the stream implements ByteBufferReadable exactly when it works")
        .isEqualTo(served.get(StreamCapabilities.READBYTEBUFFER));
    assertThat(in.getWrappedStream() instanceof ByteBufferPositionedReadable)
        .as(label + ": the stream implements ByteBufferPositionedReadable exactly when it works")
        .isEqualTo(served.get(StreamCapabilities.PREADBYTEBUFFER));
    List<FileRange> ranges = new ArrayList<>();
    ranges.add(FileRange.createFileRange(2, 3));
    ranges.add(FileRange.createFileRange(30, 4));
    in.readVectored(ranges, ByteBuffer::allocate);
    assertThat(StandardCharsets.US_ASCII.decode(ranges.get(0).getData().get()).toString())
        .as(label + ": vectored")
        .isEqualTo("234");
    assertThat(StandardCharsets.US_ASCII.decode(ranges.get(1).getData().get()).toString())
        .as(label + ": vectored")
        .isEqualTo("uvwx");
    in.unbuffer(); // served or a no-op, as Hadoop's policy for streams without it
    in.seek(0);
    assertThat(in.read()).as(label + ": reads after unbuffer").isEqualTo('0');
    return served;
  }

  /** An operation of a capability. */
  private interface Op {
    void run() throws Exception;
  }

  private static boolean works(Op op) throws Exception {
    try {
      op.run();
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }
}
