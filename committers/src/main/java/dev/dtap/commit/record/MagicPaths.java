package dev.dtap.commit.record;

import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * The magic committer's paths: a task attempt writes {@code
 * <dest>/__magic_job-<uuid>/<attempt>/__base/<relative path>}, and the file goes to {@code
 * <dest>/<relative path>}. Without {@code __base}, what follows the attempt is the relative path.
 * Paths under {@code __magic_job-*} are virtual: nothing is ever stored there.
 */
public final class MagicPaths {
  static final String MAGIC_PREFIX = "__magic_job-";
  static final String BASE = "__base";

  private MagicPaths() {}

  /** A file created under a magic path. Immutable. */
  public static final class MagicFile {
    public final Path dest;
    public final String uuid;
    public final String attempt;
    final String relative;

    MagicFile(Path dest, String uuid, String attempt, String relative) {
      this.dest = dest;
      this.uuid = uuid;
      this.attempt = attempt;
      this.relative = relative;
    }

    /**
     * @return where the file becomes visible at job commit
     */
    public Path finalPath() {
      return new Path(dest, relative);
    }
  }

  /**
   * @param path a qualified path
   * @return whether the path is in a magic namespace
   */
  public static boolean isMagic(Path path) {
    String p = path.toUri().getPath();
    int i = p.indexOf("/" + MAGIC_PREFIX);
    return i >= 0 && p.length() > i + 1 + MAGIC_PREFIX.length();
  }

  static Path jobRoot(Path dest, String uuid) {
    return new Path(dest, MAGIC_PREFIX + uuid);
  }

  public static Path attemptBase(Path dest, String uuid, String attempt) {
    return new Path(new Path(jobRoot(dest, uuid), attempt), BASE);
  }

  /**
   * Parses a magic path.
   *
   * @param path a qualified path
   * @return the file, or empty when the path is not a file path under a task attempt (the magic
   *     directories themselves)
   */
  public static Optional<MagicFile> parse(Path path) {
    String full = path.toUri().getPath();
    String[] parts = full.split("/");
    int magic = -1;
    for (int i = 0; i < parts.length; i++) {
      if (parts[i].startsWith(MAGIC_PREFIX) && parts[i].length() > MAGIC_PREFIX.length()) {
        magic = i;
        break;
      }
    }
    if (magic < 0 || magic + 2 >= parts.length) {
      return Optional.empty();
    }
    int start = magic + 2;
    for (int i = parts.length - 2; i > magic + 1; i--) {
      if (parts[i].equals(BASE)) {
        start = i + 1;
        break;
      }
    }
    if (start >= parts.length || (start == parts.length - 1 && parts[start].equals(BASE))) {
      return Optional.empty();
    }
    StringBuilder dest = new StringBuilder();
    for (int i = 1; i < magic; i++) {
      dest.append('/').append(parts[i]);
    }
    StringBuilder rel = new StringBuilder();
    for (int i = start; i < parts.length; i++) {
      rel.append(rel.length() == 0 ? "" : "/").append(parts[i]);
    }
    java.net.URI u = path.toUri();
    Path destPath =
        new Path(u.getScheme(), u.getAuthority(), dest.length() == 0 ? "/" : dest.toString());
    return Optional.of(
        new MagicFile(
            destPath,
            parts[magic].substring(MAGIC_PREFIX.length()),
            parts[magic + 1],
            rel.toString()));
  }
}
