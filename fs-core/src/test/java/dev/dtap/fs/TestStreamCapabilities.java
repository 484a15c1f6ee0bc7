package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.testing.CapabilityFileSystem;
import dev.dtap.fs.testing.CapabilityWalk;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
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
  private static final byte[] DATA = CapabilityWalk.DATA;

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
        conf.set(
            "fs.dtap.tap.t.conf.fs.file.impl",
            org.apache.hadoop.fs.RawLocalFileSystem.class.getName());
        conf.set("fs.dtap.tap.t.conf.fs.file.impl.disable.cache", "true");
        break;
      default:
        uri = backend + "://" + root.getAbsolutePath();
        conf.set(
            "fs.dtap.tap.t.conf.fs." + backend + ".impl", CapabilityFileSystem.class.getName());
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
      Map<String, Boolean> served = CapabilityWalk.walk(backend, in);
      if (backend.equals("capfull")) {
        assertThat(served)
            .as("a stream with every interface serves all")
            .doesNotContainValue(false);
      }
      if (backend.equals("capnone") || backend.equals("local")) {
        assertThat(served.get(StreamCapabilities.READBYTEBUFFER))
            .as(backend + " has no byte-buffer reads")
            .isFalse();
      }
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
}
