package dev.dtap.fs.testing;

import java.io.EOFException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanSetDropBehind;
import org.apache.hadoop.fs.CanSetReadahead;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * A local filesystem for tests whose read streams have a chosen set of optional interfaces: {@code
 * capfull://} streams implement and advertise every one (byte-buffer reads, positioned byte-buffer
 * reads, unbuffer, readahead, drop-behind), {@code capnone://} streams none. Bind a scheme with
 * {@code fs.capfull.impl} / {@code fs.capnone.impl} = this class.
 */
public class CapabilityFileSystem extends RawLocalFileSystem {
  private boolean full;
  private URI uri;

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    full = "capfull".equals(name.getScheme());
    uri = URI.create(name.getScheme() + ":///");
  }

  @Override
  public URI getUri() {
    return uri == null
        ? super.getUri()
        : uri; // the superclass's constructor asks before initialize
  }

  @Override
  public String getScheme() {
    return getUri().getScheme();
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    byte[] data = Files.readAllBytes(pathToFile(f).toPath());
    return new FSDataInputStream(full ? new Full(data) : new Bare(data));
  }

  /** Only what every Hadoop stream has, over bytes in memory; a base for tests' own streams. */
  public static class Bare extends FSInputStream {
    protected final byte[] data;
    protected int pos;

    public Bare(byte[] data) {
      this.data = data;
    }

    @Override
    public void seek(long p) throws IOException {
      if (p < 0 || p > data.length) {
        throw new EOFException("seek to " + p);
      }
      pos = (int) p;
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read() throws IOException {
      return pos < data.length ? data[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (pos >= data.length) {
        return -1;
      }
      int n = Math.min(len, data.length - pos);
      System.arraycopy(data, pos, b, off, n);
      pos += n;
      return n;
    }
  }

  /** Every optional interface, each advertised. */
  static final class Full extends Bare
      implements ByteBufferReadable,
          ByteBufferPositionedReadable,
          CanUnbuffer,
          CanSetReadahead,
          CanSetDropBehind,
          StreamCapabilities {
    Full(byte[] data) {
      super(data);
    }

    @Override
    public int read(ByteBuffer buf) {
      if (pos >= data.length) {
        return -1;
      }
      int n = Math.min(buf.remaining(), data.length - pos);
      buf.put(data, pos, n);
      pos += n;
      return n;
    }

    @Override
    public int read(long position, ByteBuffer buf) {
      if (position >= data.length) {
        return -1;
      }
      int n = Math.min(buf.remaining(), data.length - (int) position);
      buf.put(data, (int) position, n);
      return n;
    }

    @Override
    public void readFully(long position, ByteBuffer buf) throws IOException {
      if (read(position, buf) < 0 || buf.hasRemaining()) {
        throw new EOFException("read past the end");
      }
    }

    @Override
    public void unbuffer() {}

    @Override
    public void setReadahead(Long readahead) {}

    @Override
    public void setDropBehind(Boolean dropCache) {}

    @Override
    public boolean hasCapability(String capability) {
      switch (capability) {
        case StreamCapabilities.READBYTEBUFFER:
        case StreamCapabilities.PREADBYTEBUFFER:
        case StreamCapabilities.UNBUFFER:
        case StreamCapabilities.READAHEAD:
        case StreamCapabilities.DROPBEHIND:
          return true;
        default:
          return false;
      }
    }
  }
}
