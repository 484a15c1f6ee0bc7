package dev.dtap.fs;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;

/**
 * {@code delete} of a tap root. The root itself always stays (it is where the tap begins, and on a
 * backend subdirectory deleting it would make the tap vanish); a recursive delete removes
 * everything under it, as Hadoop's specification allows for a filesystem root.
 */
final class RootDelete {
  private RootDelete() {}

  static boolean delete(
      FileSystem backend,
      Path backendRoot,
      boolean recursive,
      Path dtapRoot,
      ExceptionTranslator errors)
      throws IOException {
    FileStatus[] children;
    try {
      children = backend.listStatus(backendRoot);
    } catch (FileNotFoundException e) {
      return false;
    } catch (IOException e) {
      throw errors.translate(e, dtapRoot.toString());
    }
    if (children.length == 0) {
      return false;
    }
    if (!recursive) {
      throw new PathIsNotEmptyDirectoryException(dtapRoot.toString());
    }
    try {
      for (FileStatus child : children) {
        backend.delete(child.getPath(), true);
      }
    } catch (IOException e) {
      throw errors.translate(e, dtapRoot.toString());
    }
    return true;
  }
}
