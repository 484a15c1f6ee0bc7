package dev.dtap.cache.cnode;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A lock file beside the service's socket ({@code <socket>.lock}), held for the service's life, so
 * that a second service for the same path fails instead of replacing the socket of a live one. The
 * lock is the operating system's (released when the process dies, however it dies); the file stays,
 * empty.
 *
 * <p>Not thread-safe: the service takes it once at start and releases it once at close.
 */
final class SocketLock implements AutoCloseable {
  private final FileChannel file;
  private final FileLock lock;

  private SocketLock(FileChannel file, FileLock lock) {
    this.file = file;
    this.lock = lock;
  }

  /**
   * Takes the lock of a socket path.
   *
   * @param socket the service's socket
   * @return the held lock
   * @throws IOException naming {@code fs.dtap.cnode.socket} when another service holds it or the
   *     lock file cannot be opened
   */
  static SocketLock acquire(Path socket) throws IOException {
    Path path = socket.resolveSibling(socket.getFileName() + ".lock");
    FileChannel file;
    try {
      file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new IOException(
          "Cannot open the lock file of " + CnodeKeys.SOCKET.name() + " " + path + ": " + e, e);
    }
    FileLock lock;
    try {
      lock = file.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null; // held by another service in this JVM
    } catch (IOException e) {
      file.close();
      throw e;
    }
    if (lock == null) {
      file.close();
      throw new IOException(
          "Another cache service runs for "
              + socket
              + " ("
              + CnodeKeys.SOCKET.name()
              + "): one per host");
    }
    return new SocketLock(file, lock);
  }

  @Override
  public void close() {
    try {
      lock.release();
      file.close();
    } catch (IOException e) {
      // the process's end releases it too
    }
  }
}
