package dev.dtap.fs;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Which path capabilities a tap may report. A capability dtap cannot honour is false whatever the
 * backend says; everything else is the backend's answer, except the few dtap decides itself.
 */
final class PathCapabilities {
  /** Never through dtap: dtap does not expose these backend features. */
  private static final Set<String> NEVER =
      set(
          "fs.capability.paths.symlinks",
          "fs.capability.paths.pathhandles",
          "fs.capability.multipart.uploader",
          "fs.capability.batch.listing");

  /** Not on a read-only tap: every one of them writes. */
  private static final Set<String> WRITES =
      set(
          "fs.capability.paths.append",
          "fs.capability.paths.concat",
          "fs.capability.paths.truncate",
          "fs.capability.bulk.delete",
          "fs.capability.outputstream.abortable",
          "fs.capability.lease.recoverable");

  static final String READ_ONLY_CONNECTOR = "fs.capability.paths.read-only-connector";
  static final String VIRTUAL_BLOCK_LOCATIONS = "fs.capability.virtual.block.locations";

  private PathCapabilities() {}

  private static Set<String> set(String... values) {
    return Collections.unmodifiableSet(new HashSet<>(Arrays.asList(values)));
  }

  /**
   * Whether the capability can be true at all on this tap; if so the backend decides, unless {@link
   * #decided} answers.
   */
  static boolean supported(String capability, boolean readOnly) {
    String c = capability.toLowerCase(Locale.ROOT);
    if (NEVER.contains(c)) {
      return false;
    }
    return !(readOnly && WRITES.contains(c));
  }

  /**
   * Capabilities dtap answers without asking the backend.
   *
   * @return TRUE/FALSE, or null when the backend decides
   */
  static Boolean decided(String capability, boolean readOnly, boolean virtualLocations) {
    String c = capability.toLowerCase(Locale.ROOT);
    if (c.equals(READ_ONLY_CONNECTOR)) {
      return readOnly ? Boolean.TRUE : null;
    }
    if (c.equals(VIRTUAL_BLOCK_LOCATIONS)) {
      return virtualLocations ? Boolean.TRUE : null;
    }
    return null;
  }
}
