package dev.dtap.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.FileSystemException;
import java.nio.file.Paths;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;

/**
 * Refuses local paths that resolve, through a symbolic link anywhere along them, outside the tap
 * root. Only {@code file:} backends follow links on the client, so only they need this.
 *
 * <p>The common case, an existing path, costs one {@code realpath(3)}. A path that does not exist
 * yet (a create) is resolved through its deepest existing ancestor, following dangling links by
 * hand, because creating through a dangling link would write wherever it points.
 *
 * <p>Thread-safe.
 */
final class SymlinkGuard {
  private static final int MAX_LINKS = 40;

  private final String tap;
  private final java.nio.file.Path root;
  private volatile java.nio.file.Path realRoot;

  SymlinkGuard(String tap, String decodedRootPath) {
    this.tap = tap;
    this.root = Paths.get(decodedRootPath.isEmpty() ? "/" : decodedRootPath);
  }

  /**
   * Checks one backend path.
   *
   * @param dtapPath for the message
   * @param decodedBackendPath the local path the backend will touch
   * @throws AccessControlException if it resolves outside the root
   */
  void check(Path dtapPath, String decodedBackendPath) throws IOException {
    java.nio.file.Path realRootNow = realRoot();
    if (realRootNow == null) {
      return; // the root does not exist, so nothing below it does either
    }
    java.nio.file.Path local = Paths.get(decodedBackendPath);
    java.nio.file.Path real;
    try {
      real = local.toRealPath();
    } catch (FileSystemException e) {
      // missing, or a parent is a file (ENOTDIR): resolve through the part that exists
      real = resolveMissing(local, dtapPath);
    }
    if (!real.startsWith(realRootNow)) {
      throw new AccessControlException(
          "Path " + dtapPath + " resolves through a symbolic link outside the root of tap '"
              + tap + "' and is refused");
    }
  }

  private java.nio.file.Path realRoot() {
    java.nio.file.Path r = realRoot;
    if (r == null) {
      try {
        r = root.toRealPath();
        realRoot = r;
      } catch (IOException e) {
        return null;
      }
    }
    return r;
  }

  /** Where a path that does not (fully) exist would land, following links along the way. */
  private java.nio.file.Path resolveMissing(java.nio.file.Path path, Path dtapPath)
      throws IOException {
    try {
      return resolveThroughLinks(path, dtapPath);
    } catch (AccessControlException e) {
      throw e;
    } catch (IOException e) {
      // never show the local path behind the tap
      throw new AccessControlException(
          "Cannot check " + dtapPath + " for symbolic links on tap '" + tap + "': "
              + e.getClass().getSimpleName());
    }
  }

  private java.nio.file.Path resolveThroughLinks(java.nio.file.Path path, Path dtapPath)
      throws IOException {
    java.nio.file.Path p = path.normalize();
    for (int hops = 0; hops <= MAX_LINKS; hops++) {
      java.nio.file.Path existing = p;
      while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
        existing = existing.getParent();
      }
      if (existing == null) {
        return p;
      }
      java.nio.file.Path rest = existing.relativize(p);
      if (Files.isSymbolicLink(existing) && !Files.exists(existing)) {
        // a dangling link: the part below it would be created where it points
        java.nio.file.Path target = Files.readSymbolicLink(existing);
        java.nio.file.Path parent = existing.getParent();
        java.nio.file.Path base = parent == null ? target : parent.resolve(target);
        p = base.resolve(rest).normalize();
        continue;
      }
      return existing.toRealPath().resolve(rest).normalize();
    }
    throw new AccessControlException(
        "Path " + dtapPath + " goes through too many symbolic links on tap '" + tap + "'");
  }
}
