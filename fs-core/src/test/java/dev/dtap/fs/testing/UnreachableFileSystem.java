package dev.dtap.fs.testing;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A backend whose server does not answer: every call fails as Hadoop RPC fails against a NameNode
 * nobody listens on, with a message that names the server and no path. Bind a scheme to it with
 * {@code fs.<scheme>.impl}.
 */
public class UnreachableFileSystem extends FileSystem {
  private URI uri;
  private Path workingDir = new Path("/");

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    uri = URI.create(name.getScheme() + "://" + name.getAuthority());
  }

  /**
   * @return the failure every call throws, naming the server as Hadoop's RPC client does
   */
  private IOException refused() {
    return new ConnectException(
        "Call From vm/127.0.0.1 to "
            + uri.getAuthority()
            + " failed on connection exception: java.net.ConnectException: Connection refused");
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    throw refused();
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    throw refused();
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    throw refused();
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    throw refused();
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    throw refused();
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    throw refused();
  }

  /** A paged listing that fails when its first page is fetched, as S3A's does. */
  @Override
  public RemoteIterator<FileStatus> listStatusIterator(Path f) {
    return new RemoteIterator<FileStatus>() {
      @Override
      public boolean hasNext() throws IOException {
        throw refused();
      }

      @Override
      public FileStatus next() throws IOException {
        throw refused();
      }
    };
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDir = dir;
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    throw refused();
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    throw refused();
  }

  @Override
  public void setPermission(Path p, FsPermission permission) throws IOException {
    throw refused();
  }
}
