package dev.dtap.fs.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * All taps of a site, parsed once from a {@link Configuration} and validated.
 *
 * <p>Every tap is validated, but a tap's error stays with that tap: {@link #tap(String)} throws it
 * when the tap is used, and the other taps work ({@code dtap check} lists every error at once).
 * Only errors in settings shared by all taps fail the whole parse. Immutable and thread-safe.
 */
public final class DataTapConfig {
  /** Tap names: lower-case letters, digits and dashes, starting with a letter or digit. */
  public static final Pattern TAP_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

  private static final String CONF_SUFFIX = "conf.";

  private final SortedMap<String, TapConfig> taps;
  private final SortedMap<String, InvalidConfigurationException> invalid;

  private DataTapConfig(
      SortedMap<String, TapConfig> taps, SortedMap<String, InvalidConfigurationException> invalid) {
    this.taps = Collections.unmodifiableSortedMap(taps);
    this.invalid = Collections.unmodifiableSortedMap(invalid);
  }

  /**
   * Parses and validates every tap.
   *
   * @param conf the site configuration
   * @param extensionKeys per-tap keys declared by extensions on the classpath (cache, locality,
   *     committers), accepted in addition to fs-core's own
   * @return the parsed taps, and the error of each tap that is invalid
   * @throws InvalidConfigurationException naming the key and the accepted values when a setting
   *     shared by every tap is invalid
   */
  public static DataTapConfig parse(Configuration conf, Collection<ConfigKey<?>> extensionKeys)
      throws InvalidConfigurationException {
    ConfigReader reader = new ConfigReader(conf);
    Set<String> knownSuffixes = new TreeSet<>();
    Set<String> knownPrefixes = new TreeSet<>();
    for (ConfigKey<?> key : DataTapKeys.all()) {
      addSuffix(key, knownSuffixes, knownPrefixes);
    }
    for (ConfigKey<?> key : extensionKeys) {
      addSuffix(key, knownSuffixes, knownPrefixes);
    }

    Map<String, Map<String, String>> byTap = new TreeMap<>();
    SortedMap<String, InvalidConfigurationException> invalid = new TreeMap<>();
    for (Map.Entry<String, String> e : conf.getPropsWithPrefix(DataTapKeys.TAP_PREFIX).entrySet()) {
      String rest = e.getKey();
      int dot = rest.indexOf('.');
      String fullKey = DataTapKeys.TAP_PREFIX + rest;
      if (dot <= 0 || dot == rest.length() - 1) {
        invalid.putIfAbsent(
            dot <= 0 ? rest : rest.substring(0, dot),
            new InvalidConfigurationException(
                "Malformed key " + fullKey + ": expected fs.dtap.tap.<name>.<setting>"));
        continue;
      }
      String tap = rest.substring(0, dot);
      String suffix = rest.substring(dot + 1);
      if (!TAP_NAME.matcher(tap).matches()) {
        invalid.putIfAbsent(
            tap,
            new InvalidConfigurationException(
                "Invalid tap name '"
                    + tap
                    + "' in key "
                    + fullKey
                    + ": tap names are 1-63 lower-case letters, digits or '-', starting with a"
                    + " letter"
                    + " or digit"));
        continue;
      }
      if (!isKnown(suffix, knownSuffixes, knownPrefixes)) {
        invalid.putIfAbsent(
            tap,
            new InvalidConfigurationException(
                "Unknown key "
                    + fullKey
                    + ": settings accepted for a tap are "
                    + knownSuffixes
                    + " and keys starting with "
                    + knownPrefixes
                    + " (an extension key needs its module on the classpath)"));
        continue;
      }
      byTap.computeIfAbsent(tap, t -> new HashMap<>()).put(suffix, e.getValue());
    }

    boolean cacheDefault = DataTapKeys.CACHE_ENABLED.get(conf);
    boolean localityDefault = DataTapKeys.LOCALITY_ENABLED.get(conf);
    SortedMap<String, TapConfig> taps = new TreeMap<>();
    for (Map.Entry<String, Map<String, String>> e : byTap.entrySet()) {
      String tap = e.getKey();
      if (invalid.containsKey(tap)) {
        continue;
      }
      try {
        taps.put(tap, parseTap(tap, e.getValue(), reader, cacheDefault, localityDefault));
      } catch (InvalidConfigurationException x) {
        invalid.put(tap, x);
      }
    }
    return new DataTapConfig(taps, invalid);
  }

  private static TapConfig parseTap(
      String tap,
      Map<String, String> settings,
      ConfigReader reader,
      boolean cacheDefault,
      boolean localityDefault)
      throws InvalidConfigurationException {
    URI root = parseRoot(tap, settings.get("uri"), settings.keySet());
    Map<String, String> overrides = new HashMap<>();
    for (Map.Entry<String, String> s : settings.entrySet()) {
      if (s.getKey().startsWith(CONF_SUFFIX)) {
        String backendKey = s.getKey().substring(CONF_SUFFIX.length());
        if (backendKey.isEmpty()) {
          throw new InvalidConfigurationException(
              "Malformed key " + DataTapKeys.TAP_CONF.forTap(tap) + ": no Hadoop key after conf.");
        }
        overrides.put(backendKey, s.getValue());
      }
    }
    return new TapConfig(
        tap,
        root,
        DataTapKeys.TAP_READONLY.getForTap(reader.configuration(), tap),
        DataTapKeys.TAP_CACHE.getForTap(reader.configuration(), tap, cacheDefault),
        DataTapKeys.TAP_LOCALITY.getForTap(reader.configuration(), tap, localityDefault),
        DataTapKeys.TAP_CHECK_SYMLINKS.getForTap(reader.configuration(), tap),
        overrides);
  }

  private static void addSuffix(ConfigKey<?> key, Set<String> suffixes, Set<String> prefixes) {
    if (!key.name().startsWith(DataTapKeys.TAP_PREFIX)) {
      return;
    }
    String suffix = key.tapSuffix();
    int open = suffix.indexOf('<');
    if (open >= 0) {
      prefixes.add(suffix.substring(0, open));
    } else {
      suffixes.add(suffix);
    }
  }

  private static boolean isKnown(String suffix, Set<String> suffixes, Set<String> prefixes) {
    if (suffixes.contains(suffix)) {
      return true;
    }
    for (String prefix : prefixes) {
      if (suffix.startsWith(prefix) && suffix.length() > prefix.length()) {
        return true;
      }
    }
    return false;
  }

  private static URI parseRoot(String tap, String value, Set<String> present)
      throws InvalidConfigurationException {
    String key = DataTapKeys.TAP_URI.forTap(tap);
    if (value == null || value.trim().isEmpty()) {
      throw new InvalidConfigurationException(
          key + " is not set; tap '" + tap + "' has only " + new TreeSet<>(present));
    }
    URI uri;
    try {
      // an encoded URI means what it says (file:///data/my%20dir is "my dir")
      uri = new URI(value.trim());
    } catch (URISyntaxException e) {
      // not a valid URI as written: read it as Hadoop's Path reads it, characters as they are
      // (file:///data/my dir, non-ASCII names)
      try {
        uri = new org.apache.hadoop.fs.Path(value.trim()).toUri();
      } catch (IllegalArgumentException x) {
        // The reason can quote the value; a URI is never a secret once userinfo is refused below,
        // but a malformed one might carry one, so show only the position.
        throw new InvalidConfigurationException(
            "Invalid URI for " + key + " (at index " + e.getIndex() + "): " + expectedUri());
      }
    }
    String authority = uri.getRawAuthority();
    if (authority != null
        && (authority.indexOf('%') >= 0 || authority.chars().anyMatch(Character::isWhitespace))) {
      // a host or bucket name never needs escaping; the value is not shown (it may hold a secret)
      throw new InvalidConfigurationException(
          "Invalid URI for "
              + key
              + ": its authority (host or bucket) "
              + "holds characters no host or bucket name has; "
              + expectedUri());
    }
    if (uri.getRawUserInfo() != null) {
      throw new InvalidConfigurationException(
          key
              + " must not contain credentials (user info); set them with "
              + DataTapKeys.TAP_CONF.forTap(tap).replace("<key>", "fs.s3a.access.key")
              + " and friends");
    }
    if (uri.getScheme() == null || uri.isOpaque()) {
      throw invalidUri(key, value);
    }
    if (uri.getScheme().toLowerCase(Locale.ROOT).equals("dtap")) {
      throw new InvalidConfigurationException(
          key + " points at a dtap:// location; a tap must name a backend filesystem");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw invalidUri(key, value);
    }
    String path = uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath();
    for (String segment : path.split("/")) {
      if (segment.equals("..") || segment.equals(".")) {
        throw new InvalidConfigurationException(
            key + " must be a normalised path without '.' or '..' segments: " + value);
      }
    }
    String normalised = path.replaceAll("/+", "/");
    if (normalised.length() > 1 && normalised.endsWith("/")) {
      normalised = normalised.substring(0, normalised.length() - 1);
    }
    try {
      return new URI(uri.getScheme(), uri.getAuthority(), normalised, null, null);
    } catch (URISyntaxException e) {
      throw invalidUri(key, value);
    }
  }

  private static InvalidConfigurationException invalidUri(String key, String value) {
    return ConfigReader.invalid(key, value, expectedUri());
  }

  private static String expectedUri() {
    return "an absolute hierarchical URI such as s3a://bucket/prefix, hdfs://nn:8020/data or"
        + " file:///mnt/data";
  }

  /**
   * Looks up one tap.
   *
   * @param name the tap name
   * @return the tap, or {@code null} when none is configured under that name
   * @throws InvalidConfigurationException the tap's own error, when its settings are invalid
   */
  public TapConfig tap(String name) throws InvalidConfigurationException {
    InvalidConfigurationException e = invalid.get(name);
    if (e != null) {
      InvalidConfigurationException x = new InvalidConfigurationException(e.getMessage());
      x.initCause(e);
      throw x;
    }
    return taps.get(name);
  }

  /**
   * @return every configured tap name, valid or not, sorted
   */
  public Set<String> tapNames() {
    SortedSet<String> names = new TreeSet<>(taps.keySet());
    names.addAll(invalid.keySet());
    return Collections.unmodifiableSortedSet(names);
  }

  /**
   * @return every valid tap, by name
   */
  public SortedMap<String, TapConfig> taps() {
    return taps;
  }

  /**
   * @return the error of every invalid tap, by name
   */
  public SortedMap<String, InvalidConfigurationException> invalidTaps() {
    return invalid;
  }
}
