package dev.dtap.fs;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;

/**
 * Translates between {@code dtap://tap/...} paths and paths under the tap's backend root, and
 * enforces containment: no spelling of a dtap path ({@code ..} segments, percent-encoded dots,
 * repeated slashes) reaches outside the root.
 *
 * <p>Both directions work on the decoded path of the URI, so what the backend sees as a file name
 * is exactly what the caller named. Immutable and thread-safe.
 */
final class PathMapper {
  private final String tap;
  private final String backendScheme;
  private final String backendAuthority;

  /** Decoded root path without trailing slash; empty when the root is "/". */
  private final String rootPath;

  /** The root as a raw URI string without trailing slash, e.g. {@code hdfs://nn:8020/data}. */
  private final String rawRootPrefix;

  /** The root's raw path without trailing slash; empty when the root is "/". */
  private final String rawRootPath;

  /** {@code dtap://tap}, the raw prefix of every dtap URI of this tap. */
  private final String rawDtapPrefix;

  /**
   * @param tap the tap name (the authority of dtap paths)
   * @param backendRoot the qualified, normalised backend root
   */
  PathMapper(String tap, URI backendRoot) {
    this.tap = tap;
    this.backendScheme = backendRoot.getScheme();
    this.backendAuthority = backendRoot.getAuthority();
    String p = backendRoot.getPath() == null ? "" : backendRoot.getPath();
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    this.rootPath = p;
    String raw = backendRoot.getRawPath() == null ? "" : backendRoot.getRawPath();
    while (raw.endsWith("/")) {
      raw = raw.substring(0, raw.length() - 1);
    }
    this.rawRootPath = raw;
    String scheme = backendRoot.getScheme() + ":";
    String authority = backendRoot.getRawAuthority();
    this.rawRootPrefix = (authority == null ? scheme : scheme + "//" + authority) + raw;
    this.rawDtapPrefix = "dtap://" + tap;
  }

  /**
   * @return the tap name
   */
  String tap() {
    return tap;
  }

  /**
   * @return the decoded backend root path, "" for the backend's root directory
   */
  String rootPath() {
    return rootPath;
  }

  /**
   * Maps a qualified dtap path to the backend.
   *
   * @param dtapPath qualified path on this tap
   * @return the backend path
   * @throws AccessControlException if the path leaves the tap root
   */
  Path toBackend(Path dtapPath) throws AccessControlException {
    // Fast path, most paths: the raw path has no escapes and nothing to normalise, so the backend
    // URI is the root's raw form plus the caller's raw path, parsed once and never re-quoted.
    String raw = dtapPath.toUri().getRawPath();
    if (raw != null && raw.indexOf('%') < 0 && !raw.isEmpty() && isPlain(raw)) {
      String rel = raw.endsWith("/") ? raw.substring(0, raw.length() - 1) : raw;
      if (!rel.isEmpty() || !rawRootPath.isEmpty()) {
        return parse(rawRootPrefix + rel);
      }
    }
    String relative = normalise(dtapPath);
    return build(backendScheme, backendAuthority, rootPath + relative);
  }

  /**
   * The dtap path of a backend path whose spelling the caller already knows to be canonical, e.g.
   * the normalised path a status was asked for: skips a round of URI work.
   *
   * @param dtapPath a qualified dtap path of this tap
   * @return the path itself when it is already in canonical form, else its canonical form
   * @throws AccessControlException if the path leaves the root
   */
  Path canonical(Path dtapPath) throws AccessControlException {
    String raw = dtapPath.toUri().getRawPath();
    if (raw != null
        && raw.indexOf('%') < 0
        && isPlain(raw)
        && (raw.length() == 1 || !raw.endsWith("/"))) {
      return dtapPath;
    }
    String relative = normalise(dtapPath);
    return build("dtap", tap, relative.isEmpty() ? "/" : relative);
  }

  /**
   * The normalised path of a dtap path relative to the tap root: "" for the root, else "/a/b".
   *
   * @param dtapPath qualified path on this tap
   * @return the relative path, decoded
   * @throws AccessControlException if dot segments climb above the root
   */
  String normalise(Path dtapPath) throws AccessControlException {
    String decoded = dtapPath.toUri().getPath();
    if (decoded == null || decoded.isEmpty() || decoded.equals("/")) {
      return "";
    }
    if (isPlain(decoded)) {
      return decoded.endsWith("/") ? decoded.substring(0, decoded.length() - 1) : decoded;
    }
    Deque<String> segments = new ArrayDeque<>();
    int start = 0;
    int len = decoded.length();
    while (start <= len) {
      int slash = decoded.indexOf('/', start);
      int end = slash < 0 ? len : slash;
      String segment = decoded.substring(start, end);
      if (segment.equals("..")) {
        if (segments.isEmpty()) {
          throw escape(dtapPath);
        }
        segments.removeLast();
      } else if (!segment.isEmpty() && !segment.equals(".")) {
        segments.addLast(segment);
      }
      start = end + 1;
    }
    StringBuilder sb = new StringBuilder(len);
    for (String s : segments) {
      sb.append('/').append(s);
    }
    return sb.toString();
  }

  /** True when the path has no empty, "." or ".." segment and so needs no rewriting. */
  private static boolean isPlain(String p) {
    if (p.charAt(0) != '/') {
      return false;
    }
    int len = p.length();
    int segStart = 1;
    for (int i = 1; i <= len; i++) {
      if (i == len || p.charAt(i) == '/') {
        int segLen = i - segStart;
        boolean dot = segLen > 0 && p.charAt(segStart) == '.';
        if ((segLen == 0 && i < len)
            || (dot && segLen == 1)
            || (dot && segLen == 2 && p.charAt(segStart + 1) == '.')) {
          return false;
        }
        segStart = i + 1;
      }
    }
    return true;
  }

  /**
   * Maps a backend path under the root back to dtap.
   *
   * @param backendPath a path from the backend (qualified or not)
   * @return the qualified dtap path
   * @throws AccessControlException if the path is not under the tap root
   */
  Path toDtap(Path backendPath) throws AccessControlException {
    // Fast path: an unescaped raw path under the root's raw path maps by string surgery.
    String raw = backendPath.toUri().getRawPath();
    if (raw != null
        && raw.indexOf('%') < 0
        && raw.startsWith(rawRootPath)
        && (raw.isEmpty() || isPlain(raw))) {
      int cut = rawRootPath.length();
      if (raw.length() == cut || (raw.length() == cut + 1 && raw.charAt(cut) == '/')) {
        return parse(rawDtapPrefix + "/");
      }
      if (raw.charAt(cut) == '/') {
        return parse(rawDtapPrefix + raw.substring(cut));
      }
    }
    String decoded = backendPath.toUri().getPath();
    String relative = relativeToRoot(decoded);
    if (relative == null) {
      throw new AccessControlException(
          "Backend of tap '" + tap + "' returned a location outside the tap root");
    }
    return build("dtap", tap, relative.isEmpty() ? "/" : relative);
  }

  /**
   * Whether a decoded backend path lies under the root.
   *
   * @param decoded decoded backend path
   * @return the part below the root ("" for the root itself), or null when outside
   */
  String relativeToRoot(String decoded) {
    if (decoded == null) {
      return null;
    }
    if (rootPath.isEmpty()) {
      return decoded.equals("/") || decoded.isEmpty() ? "" : decoded;
    }
    if (!decoded.startsWith(rootPath)) {
      return null;
    }
    if (decoded.length() == rootPath.length()) {
      return "";
    }
    if (decoded.charAt(rootPath.length()) != '/') {
      return null;
    }
    String rest = decoded.substring(rootPath.length());
    return rest.equals("/") ? "" : rest;
  }

  /**
   * @return the qualified dtap path of the tap root
   */
  Path dtapRoot() {
    return build("dtap", tap, "/");
  }

  private AccessControlException escape(Path dtapPath) {
    return new AccessControlException(
        "Path " + dtapPath + " leaves the root of tap '" + tap + "' and is refused");
  }

  /** A path from a raw URI string known to be valid (all parts came from parsed URIs). */
  private static Path parse(String rawUri) {
    return new Path(URI.create(rawUri));
  }

  static Path build(String scheme, String authority, String decodedPath) {
    try {
      return new Path(
          new URI(scheme, authority, decodedPath.isEmpty() ? "/" : decodedPath, null, null));
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("Cannot form a path from " + decodedPath, e);
    }
  }
}
