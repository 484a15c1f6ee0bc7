package dev.dtap.fs;

import org.apache.hadoop.fs.FileStatus;

/** A dtap status that remembers the backend status it was made from. */
interface BackendStatusHolder {
  /**
   * @return the backend's own status object, or null after deserialisation
   */
  FileStatus backendStatus();
}
