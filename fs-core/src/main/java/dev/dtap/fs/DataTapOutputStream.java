package dev.dtap.fs;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.Abortable;
import org.apache.hadoop.fs.CanSetDropBehind;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * The write stream of a tap: forwards to the backend's stream and rewrites exceptions to speak
 * dtap. {@code hflush}/{@code hsync}, abort, capabilities and IOStatistics are the backend's. Bytes
 * are counted by the {@link FSDataOutputStream} dtap wraps around this stream.
 *
 * <p>Not thread-safe, like every Hadoop output stream.
 */
final class DataTapOutputStream extends OutputStream
    implements Syncable, StreamCapabilities, IOStatisticsSource, Abortable, CanSetDropBehind {
  private final FSDataOutputStream out;
  private final ExceptionTranslator errors;
  private final TapTraffic traffic;
  private final String description;

  DataTapOutputStream(
      FSDataOutputStream out, ExceptionTranslator errors, TapTraffic traffic, String description) {
    this.out = out;
    this.errors = errors;
    this.traffic = traffic;
    this.description = description;
  }

  @Override
  public void write(int b) throws IOException {
    try {
      out.write(b);
      traffic.written(1);
    } catch (IOException e) {
      throw errors.translate(e, description);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
      traffic.written(len);
    } catch (IOException e) {
      throw errors.translate(e, description);
    }
  }

  @Override
  public void flush() throws IOException {
    try {
      out.flush();
    } catch (IOException e) {
      throw errors.translate(e, description);
    }
  }

  @Override
  public void hflush() throws IOException {
    try {
      out.hflush();
    } catch (IOException e) {
      throw errors.translate(e, description);
    }
  }

  @Override
  public void hsync() throws IOException {
    try {
      out.hsync();
    } catch (IOException e) {
      throw errors.translate(e, description);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      out.close();
    } catch (IOException e) {
      throw errors.translate(e, description);
    }
  }

  @Override
  public boolean hasCapability(String capability) {
    return out.hasCapability(capability);
  }

  @Override
  public IOStatistics getIOStatistics() {
    return out.getIOStatistics();
  }

  @Override
  public AbortableResult abort() {
    return out.abort();
  }

  @Override
  public void setDropBehind(Boolean dropCache) throws IOException {
    try {
      out.setDropBehind(dropCache);
    } catch (IOException e) {
      throw errors.translate(e, description);
    }
  }

  @Override
  public String toString() {
    return "DataTapOutputStream{" + description + "}";
  }
}
