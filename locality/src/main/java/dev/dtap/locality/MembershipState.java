package dev.dtap.locality;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last membership a JVM of this user read from a remote source, kept in a local file so that
 * the next JVM (the next {@code hadoop jar}) plans its splits without waiting for the
 * ResourceManager: a membership younger than the refresh interval is as current as a running JVM's
 * would be. The file lives in a directory only its user can write, names the source it came from,
 * and is ignored when it is older than asked, not the user's, writable by others, or from another
 * source. Losing it costs one wait; it is never required.
 *
 * <p>Thread-safe: a save writes a temporary file and moves it into place.
 */
final class MembershipState {
  private static final Logger LOG = LoggerFactory.getLogger(MembershipState.class);
  private static final String HEADER = "# dtap locality membership of ";
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rwx------");

  private final Path dir;
  private final Path file;
  private final String key;

  /**
   * @param dir the directory for state files (created, owner-only, on the first save)
   * @param key the membership key: the source and every setting that shapes its answer
   */
  MembershipState(Path dir, String key) {
    this.dir = dir;
    this.key = key;
    this.file = dir.resolve("membership-" + digest(key));
  }

  /** A membership read back, with the time its source answered. */
  static final class Saved {
    private final List<String> hosts;
    private final long savedAtMillis;

    Saved(List<String> hosts, long savedAtMillis) {
      this.hosts = hosts;
      this.savedAtMillis = savedAtMillis;
    }

    List<String> hosts() {
      return hosts;
    }

    long savedAtMillis() {
      return savedAtMillis;
    }
  }

  /**
   * The saved membership, if it may be trusted and is younger than {@code maxAgeMillis}.
   *
   * @param nowMillis the current wall time
   * @param maxAgeMillis the oldest answer to accept
   * @return the hosts, or null when there is none to use (the log says why at debug)
   */
  Saved load(long nowMillis, long maxAgeMillis) {
    try {
      if (!trusted(dir) || !trusted(file)) {
        return null;
      }
      long at = Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS).toMillis();
      if (nowMillis - at >= maxAgeMillis || at > nowMillis) {
        LOG.debug(
            "dtap locality: saved membership {} is {} ms old; not used", file, nowMillis - at);
        return null;
      }
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      if (lines.isEmpty() || !lines.get(0).equals(HEADER + key)) {
        LOG.debug("dtap locality: {} holds another source's membership; not used", file);
        return null;
      }
      List<String> hosts = new ArrayList<>();
      for (String h : lines.subList(1, lines.size())) {
        if (!h.trim().isEmpty()) {
          hosts.add(h.trim());
        }
      }
      return hosts.isEmpty() ? null : new Saved(hosts, at);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      LOG.debug("dtap locality: cannot read saved membership {}: {}", file, e.toString());
      return null;
    }
  }

  /**
   * Saves the hosts a source just gave; a failure is logged at debug and otherwise ignored, as the
   * file only spares the next JVM a wait.
   *
   * @param hosts the hosts, as the source spelled them
   */
  void save(Collection<String> hosts) {
    try {
      if (posix()) {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
      } else {
        Files.createDirectories(dir);
      }
      StringBuilder text = new StringBuilder(HEADER).append(key).append('\n');
      for (String h : hosts) {
        text.append(h).append('\n');
      }
      Path tmp = Files.createTempFile(dir, "membership-", ".tmp");
      try {
        Files.write(tmp, text.toString().getBytes(StandardCharsets.UTF_8));
        Files.setLastModifiedTime(tmp, FileTime.fromMillis(System.currentTimeMillis()));
        try {
          Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("dtap locality: cannot save membership to {}: {}", file, e.toString());
    }
  }

  /**
   * The state of one membership key for this JVM's user: under Hadoop's {@code hadoop.tmp.dir}, in
   * a directory of the user's own, so that users sharing that directory never read each other's.
   *
   * @param site the site configuration
   * @param key the membership key
   * @return the state, or null when {@code hadoop.tmp.dir} is not set
   */
  static MembershipState forUser(Configuration site, String key) {
    String tmp = site.get("hadoop.tmp.dir");
    if (tmp == null || tmp.trim().isEmpty()) {
      return null;
    }
    String user = System.getProperty("user.name", "unknown");
    return new MembershipState(Paths.get(tmp.trim(), "dtap-locality-" + user), key);
  }

  Path file() {
    return file;
  }

  /** Owned by this JVM's user and writable by nobody else; a symbolic link is never followed. */
  private static boolean trusted(Path p) throws IOException {
    if (!posix()) {
      return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }
    String owner = Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName();
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
    boolean ok =
        !Files.isSymbolicLink(p)
            && owner.equals(System.getProperty("user.name"))
            && !perms.contains(PosixFilePermission.GROUP_WRITE)
            && !perms.contains(PosixFilePermission.OTHERS_WRITE);
    if (!ok) {
      LOG.debug("dtap locality: {} is owned by {} with {}; not used", p, owner, perms);
    }
    return ok;
  }

  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }

  private static String digest(String key) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder();
      for (int i = 0; i < 8; i++) {
        hex.append(String.format("%02x", d[i]));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
