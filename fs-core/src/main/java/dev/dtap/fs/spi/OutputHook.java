package dev.dtap.fs.spi;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Intercepts file creation under special paths (the magic committer's {@code __magic_job-*}
 * directories) and writes the data somewhere else, for example as an uncompleted multipart upload
 * to the final destination.
 *
 * <p>A namespace a hook handles is virtual: {@code mkdirs} of a path it handles succeeds without
 * touching the backend, {@code create} goes to {@link #create}, and {@code getFileStatus} asks
 * {@link #getFileStatus} first.
 *
 * <p>Thread-safe.
 */
public interface OutputHook extends Closeable {
  /**
   * Whether this hook handles files created at a path.
   *
   * @param dtapPath a qualified dtap path
   * @return true if {@link #create} must be used instead of the backend's create
   */
  boolean handles(Path dtapPath);

  /**
   * Creates a file the hook handles.
   *
   * @param dtapPath the path the caller created
   * @param overwrite whether an existing file may be replaced
   * @return the stream the caller writes to
   * @throws IOException on failure
   */
  FSDataOutputStream create(Path dtapPath, boolean overwrite) throws IOException;

  /**
   * The status of a file written through the hook, as the caller must see it after close (Hadoop
   * expects a file it just wrote to exist).
   *
   * @param dtapPath a path the hook handles
   * @return the status, or null if the hook wrote nothing there
   * @throws IOException on failure
   */
  FileStatus getFileStatus(Path dtapPath) throws IOException;
}
