package dev.dtap.fs;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/** Opens a tap's private backend filesystem. Production uses {@link FileSystem#newInstance}. */
interface BackendOpener {
  /** The production opener: a fresh, uncached instance per tap. */
  BackendOpener NEW_INSTANCE = FileSystem::newInstance;

  /**
   * @param root the tap's backend root
   * @param conf the tap's private configuration
   * @return a filesystem owned by the caller
   * @throws IOException if it cannot be created
   */
  FileSystem open(URI root, Configuration conf) throws IOException;
}
