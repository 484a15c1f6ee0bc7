package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.testing.CapabilityFileSystem;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A tap's stream advertises a capability exactly when the stream underneath serves it, on every
 * kind of backend stream: Hadoop's checksummed local filesystem (whose stream passes on its inner
 * stream's capabilities without implementing them), its raw local filesystem, and streams that
 * implement every optional interface or none. What is advertised works through the stream users
 * get; what is not fails as Hadoop's own streams fail.
 */
class TestStreamCapabilities {
  private static final byte[] DATA = "0123456789abcdefghijklmnopqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);

  /** Backends by name: local, raw, capfull, capnone. */
  private static FSDataInputStream open(String backend) throws Exception {
    File root = LocalTaps.newDir("caps");
    Files.write(new File(root, "f").toPath(), DATA);
    Configuration conf = LocalTaps.newConf();
    String uri;
    switch (backend) {
      case "local":
        uri = root.toURI().toString();
        break;
      case "raw":
        uri = root.toURI().toString();
        conf.set("fs.dtap.tap.t.conf.fs.file.impl", org.apache.hadoop.fs.RawLocalFileSystem.class.getName());
        conf.set("fs.dtap.tap.t.conf.fs.file.impl.disable.cache", "true");
        break;
      default:
        uri = backend + "://" + root.getAbsolutePath();
        conf.set("fs.dtap.tap.t.conf.fs." + backend + ".impl", CapabilityFileSystem.class.getName());
        conf.set("fs.dtap.tap.t.conf.fs." + backend + ".impl.disable.cache", "true");
    }
    conf.set("fs.dtap.tap.t.uri", uri);
    FileSystem fs = FileSystem.newInstance(URI.create("dtap://t/"), conf);
    return fs.open(new Path("dtap://t/f"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"local", "raw", "capfull", "capnone"})
  void advertisedExactlyWhenServed(String backend) throws Exception {
    try (FSDataInputStream in = open(backend)) {
      Map<String, Boolean> served = new java.util.LinkedHashMap<>();
      served.put(StreamCapabilities.READBYTEBUFFER, works(() -> {
        ByteBuffer b = ByteBuffer.allocate(4);
        in.seek(0);
        assertThat(in.read(b)).isEqualTo(4);
        assertThat(new String(b.array(), StandardCharsets.US_ASCII)).isEqualTo("0123");
      }));
      served.put(StreamCapabilities.PREADBYTEBUFFER, works(() -> {
        ByteBuffer b = ByteBuffer.allocate(3);
        in.readFully(10, b);
        assertThat(new String(b.array(), StandardCharsets.US_ASCII)).isEqualTo("abc");
      }));
      served.put(StreamCapabilities.READAHEAD, works(() -> in.setReadahead(1024L)));
      served.put(StreamCapabilities.DROPBEHIND, works(() -> in.setDropBehind(true)));
      for (Map.Entry<String, Boolean> e : served.entrySet()) {
        assertThat(in.hasCapability(e.getKey()))
            .as(backend + ": " + e.getKey() + " advertised exactly when it works")
            .isEqualTo(e.getValue());
      }
      // readers such as Parquet also decide by the interfaces the wrapped stream implements
      assertThat(in.getWrappedStream() instanceof ByteBufferReadable)
          .as(backend + ": the tap's stream implements ByteBufferReadable exactly when it works")
          .isEqualTo(served.get(StreamCapabilities.READBYTEBUFFER));
      assertThat(in.getWrappedStream() instanceof ByteBufferPositionedReadable)
          .as(backend + ": the tap's stream implements ByteBufferPositionedReadable exactly when it works")
          .isEqualTo(served.get(StreamCapabilities.PREADBYTEBUFFER));
      if (backend.equals("capfull")) {
        assertThat(served).as("a stream with every interface serves all").doesNotContainValue(false);
      }
      if (backend.equals("capnone") || backend.equals("local")) {
        assertThat(served.get(StreamCapabilities.READBYTEBUFFER)).as(backend + " has no byte-buffer reads").isFalse();
      }
      // vectored reads work on every stream (natively or through Hadoop's fallback)
      List<FileRange> ranges = new ArrayList<>();
      ranges.add(FileRange.createFileRange(2, 3));
      ranges.add(FileRange.createFileRange(30, 4));
      in.readVectored(ranges, ByteBuffer::allocate);
      assertThat(StandardCharsets.US_ASCII.decode(ranges.get(0).getData().get()).toString()).isEqualTo("234");
      assertThat(StandardCharsets.US_ASCII.decode(ranges.get(1).getData().get()).toString()).isEqualTo("uvwx");
      in.unbuffer(); // served or a no-op, as Hadoop's policy for streams without it
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"local", "capnone"})
  void anUnservedByteBufferReadFailsAsHadoopsDo(String backend) throws Exception {
    try (FSDataInputStream in = open(backend)) {
      // Hadoop's FSDataInputStream refuses it itself (the tap's stream does not implement the
      // interface), with the message it gives for every such stream
      assertThatThrownBy(() -> in.read(ByteBuffer.allocate(4)))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("Byte-buffer read unsupported");
      assertThatThrownBy(() -> in.read(0, ByteBuffer.allocate(4)))
          .isInstanceOf(UnsupportedOperationException.class);
    }
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
