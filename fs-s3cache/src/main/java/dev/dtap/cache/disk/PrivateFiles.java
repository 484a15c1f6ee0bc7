package dev.dtap.cache.disk;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/** The cache's files are its owner's alone: directories 0700, files 0600. Stateless. */
public final class PrivateFiles {
  static final Set<PosixFilePermission> DIR_PERMS = PosixFilePermissions.fromString("rwx------");
  static final FileAttribute<Set<PosixFilePermission>> DIR_ATTR =
      PosixFilePermissions.asFileAttribute(DIR_PERMS);
  static final FileAttribute<Set<PosixFilePermission>> FILE_ATTR =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

  private PrivateFiles() {}

  /**
   * Creates a directory (and its parents) readable by its owner only; an existing one is made so.
   *
   * @param d the directory
   * @throws IOException if it cannot be made or its permissions cannot be set
   */
  public static void createDirectory(Path d) throws IOException {
    if (!Files.isDirectory(d)) {
      try {
        Files.createDirectories(d, DIR_ATTR);
      } catch (FileAlreadyExistsException e) {
        // a racing process made it
      }
    }
    // createDirectories honours the umask; make sure the directory is private
    Files.setPosixFilePermissions(d, DIR_PERMS);
  }

  /**
   * Opens a file several processes of the owner share for reading and writing, creating it readable
   * by its owner only when missing.
   *
   * @param file the file
   * @return the channel; the caller closes it
   * @throws IOException if it cannot be opened or created
   */
  public static FileChannel openShared(Path file) throws IOException {
    return FileChannel.open(
        file,
        EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
        FILE_ATTR);
  }
}
