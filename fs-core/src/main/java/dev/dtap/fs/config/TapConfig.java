package dev.dtap.fs.config;

import java.net.URI;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The parsed, validated configuration of one tap.
 *
 * <p>Immutable and thread-safe. {@link #toString()} shows the names of backend overrides but never
 * their values.
 */
public final class TapConfig {
  private final String name;
  private final URI root;
  private final boolean readOnly;
  private final boolean cacheEnabled;
  private final boolean localityEnabled;
  private final boolean checkSymlinks;
  private final Map<String, String> backendOverrides;

  TapConfig(
      String name,
      URI root,
      boolean readOnly,
      boolean cacheEnabled,
      boolean localityEnabled,
      boolean checkSymlinks,
      Map<String, String> backendOverrides) {
    this.name = Objects.requireNonNull(name);
    this.root = Objects.requireNonNull(root);
    this.readOnly = readOnly;
    this.cacheEnabled = cacheEnabled;
    this.localityEnabled = localityEnabled;
    this.checkSymlinks = checkSymlinks;
    this.backendOverrides = Collections.unmodifiableMap(new TreeMap<>(backendOverrides));
  }

  /**
   * @return the tap name, as in {@code dtap://<name>/}
   */
  public String name() {
    return name;
  }

  /**
   * @return the normalised backend root: absolute, no trailing slash unless it is "/"
   */
  public URI root() {
    return root;
  }

  /**
   * @return whether every mutation is refused
   */
  public boolean readOnly() {
    return readOnly;
  }

  /**
   * @return whether reads go through the read cache
   */
  public boolean cacheEnabled() {
    return cacheEnabled;
  }

  /**
   * @return whether block locations come from the locality resolver
   */
  public boolean localityEnabled() {
    return localityEnabled;
  }

  /**
   * @return whether local symlinks are checked for containment
   */
  public boolean checkSymlinks() {
    return checkSymlinks;
  }

  /**
   * The Hadoop keys set for this tap's backend only. Values may be secrets: never print them.
   *
   * @return key to value, sorted by key
   */
  public Map<String, String> backendOverrides() {
    return backendOverrides;
  }

  @Override
  public String toString() {
    return "TapConfig{name="
        + name
        + ", root="
        + root
        + ", readOnly="
        + readOnly
        + ", cache="
        + cacheEnabled
        + ", locality="
        + localityEnabled
        + ", checkSymlinks="
        + checkSymlinks
        + ", overrides="
        + backendOverrides.keySet()
        + "}";
  }
}
