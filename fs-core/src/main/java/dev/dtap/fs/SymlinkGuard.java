package dev.dtap.fs;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.security.AccessControlException;

/**
 * Refuses local paths that resolve, through a symbolic link anywhere along them, outside the tap
 * root. Only {@code file:} backends follow links on the client, so only they need this.
 *
 * <p>The common case, no link below the root, costs one {@code lstat} per path component below the
 * root. When a link is found, the path is resolved: an existing one with {@code realpath(3)}, one
 * that does not exist yet (a create) through its deepest existing ancestor, following dangling
 * links by hand, because creating through a dangling link would write wherever it points.
 *
 * <p>Thread-safe.
 */
final class SymlinkGuard {
  private static final int MAX_LINKS = 40;

  private final String tap;
  private final Path root;

  /** The root as a string without a trailing slash ("" for "/"), for cheap prefix tests. */
  private final String rootPrefix;

  private volatile Path realRoot;

  SymlinkGuard(String tap, String decodedRootPath) {
    this.tap = tap;
    this.root = Paths.get(decodedRootPath.isEmpty() ? "/" : decodedRootPath);
    String r = root.toString();
    this.rootPrefix = r.equals("/") ? "" : r;
  }

  /**
   * Checks one backend path.
   *
   * @param dtapPath for the message
   * @param decodedBackendPath the local path the backend will touch
   * @throws AccessControlException if it resolves outside the root
   */
  void check(org.apache.hadoop.fs.Path dtapPath, String decodedBackendPath) throws IOException {
    try {
      walk(dtapPath, decodedBackendPath);
    } catch (InvalidPathException e) {
      // a NUL, which no local file name may hold; java.nio reports it unchecked, with the path
      throw new PathIOException(dtapPath.toString(), "not a valid local path: " + e.getReason());
    }
  }

  private void walk(org.apache.hadoop.fs.Path dtapPath, String decodedBackendPath)
      throws IOException {
    String local = decodedBackendPath;
    int below = rootPrefix.length();
    if (!local.startsWith(rootPrefix) || (local.length() > below && local.charAt(below) != '/')) {
      throw escape(dtapPath);
    }
    // Walk the components below the configured root with lstat: when none is a link, the path is
    // physically under the root (the root itself may be a link; the operator chose it). Paths are
    // short below a tap root, so this costs a few system calls where realpath(3) costs one per
    // component of the whole absolute path. The walk works on the string: this runs on every call,
    // and on a call as cheap as a local stat, path objects per component cost as much as the stat.
    int from = below + 1;
    while (from <= local.length()) {
      int slash = local.indexOf('/', from);
      int end = slash < 0 ? local.length() : slash;
      if (end > from) {
        BasicFileAttributes attrs;
        try {
          attrs =
              Files.readAttributes(
                  Paths.get(local.substring(0, end)),
                  BasicFileAttributes.class,
                  LinkOption.NOFOLLOW_LINKS);
        } catch (FileSystemException e) {
          return; // missing (or under a file): nothing further down can exist, let alone be a link
        }
        if (attrs.isSymbolicLink()) {
          checkThroughLink(dtapPath, Paths.get(local));
          return;
        }
      }
      from = end + 1;
    }
  }

  /** A link was found: resolve where the whole path lands and compare with the real root. */
  private void checkThroughLink(org.apache.hadoop.fs.Path dtapPath, Path local) throws IOException {
    Path realRootNow = realRoot();
    if (realRootNow == null) {
      throw escape(dtapPath);
    }
    Path real;
    try {
      real = local.toRealPath();
    } catch (FileSystemException e) {
      // missing, or a parent is a file (ENOTDIR): resolve through the part that exists
      real = resolveMissing(local, dtapPath);
    }
    if (!real.startsWith(realRootNow)) {
      throw escape(dtapPath);
    }
  }

  private AccessControlException escape(org.apache.hadoop.fs.Path dtapPath) {
    return new AccessControlException(
        "Path "
            + dtapPath
            + " resolves through a symbolic link outside the root of tap '"
            + tap
            + "' and is refused");
  }

  private Path realRoot() {
    Path r = realRoot;
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
  private Path resolveMissing(Path path, org.apache.hadoop.fs.Path dtapPath) throws IOException {
    try {
      return resolveThroughLinks(path, dtapPath);
    } catch (AccessControlException e) {
      throw e;
    } catch (IOException e) {
      // never show the local path behind the tap
      throw new AccessControlException(
          "Cannot check "
              + dtapPath
              + " for symbolic links on tap '"
              + tap
              + "': "
              + e.getClass().getSimpleName());
    }
  }

  private Path resolveThroughLinks(Path path, org.apache.hadoop.fs.Path dtapPath)
      throws IOException {
    Path p = path.normalize();
    for (int hops = 0; hops <= MAX_LINKS; hops++) {
      Path existing = p;
      while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
        existing = existing.getParent();
      }
      if (existing == null) {
        return p;
      }
      Path rest = existing.relativize(p);
      if (Files.isSymbolicLink(existing) && !Files.exists(existing)) {
        // a dangling link: the part below it would be created where it points
        Path target = Files.readSymbolicLink(existing);
        Path parent = existing.getParent();
        Path base = parent == null ? target : parent.resolve(target);
        p = base.resolve(rest).normalize();
        continue;
      }
      return existing.toRealPath().resolve(rest).normalize();
    }
    throw new AccessControlException(
        "Path " + dtapPath + " goes through too many symbolic links on tap '" + tap + "'");
  }
}
