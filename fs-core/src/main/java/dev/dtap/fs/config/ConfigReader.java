package dev.dtap.fs.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads typed values from a Hadoop {@link Configuration} and fails with an {@link
 * InvalidConfigurationException} naming the key and the accepted values when a value is bad.
 *
 * <p>Values are never clamped: a value out of range is an error. Messages quote the offending value
 * only for keys that are not {@linkplain Secrets#isSensitive(String) sensitive}.
 *
 * <p>Instances are immutable; thread-safe as long as the wrapped configuration is not modified.
 */
public final class ConfigReader {
  private static final Pattern SIZE =
      Pattern.compile(
          "(\\d+)\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib|t|tb|tib)?", Pattern.CASE_INSENSITIVE);
  private static final Pattern DURATION =
      Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);

  private final Configuration conf;

  /**
   * Wraps a configuration.
   *
   * @param conf the configuration to read; not copied
   */
  public ConfigReader(Configuration conf) {
    this.conf = conf;
  }

  /**
   * @return the wrapped configuration
   */
  public Configuration configuration() {
    return conf;
  }

  /**
   * Reads a raw, trimmed value.
   *
   * @param key the key
   * @return the value or {@code null} when unset or blank
   */
  public String get(String key) {
    String value = conf.getTrimmed(key);
    return value == null || value.isEmpty() ? null : value;
  }

  /**
   * Reads a boolean that must be spelled {@code true} or {@code false}.
   *
   * @param key the key
   * @param defaultValue used when the key is unset
   * @return the value
   * @throws InvalidConfigurationException when the value is neither
   */
  public boolean getBoolean(String key, boolean defaultValue) throws InvalidConfigurationException {
    String value = get(key);
    if (value == null) {
      return defaultValue;
    }
    switch (value.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw invalid(key, value, "true or false");
    }
  }

  /**
   * Reads an integer within a closed range.
   *
   * @param key the key
   * @param defaultValue used when the key is unset
   * @param min smallest accepted value
   * @param max largest accepted value
   * @return the value
   * @throws InvalidConfigurationException when the value is not an integer in range
   */
  public int getInt(String key, int defaultValue, int min, int max)
      throws InvalidConfigurationException {
    String value = get(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      int parsed = Integer.parseInt(value);
      if (parsed >= min && parsed <= max) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below with the accepted range
    }
    throw invalid(key, value, "an integer from " + min + " to " + max);
  }

  /**
   * Reads a byte size such as {@code 1048576}, {@code 64k}, {@code 128m}, {@code 128MiB} or {@code
   * 2g} (binary multiples) within a closed range.
   *
   * @param key the key
   * @param defaultValue used when the key is unset
   * @param min smallest accepted size in bytes
   * @param max largest accepted size in bytes
   * @return the size in bytes
   * @throws InvalidConfigurationException when the value is not a size in range
   */
  public long getBytes(String key, long defaultValue, long min, long max)
      throws InvalidConfigurationException {
    String value = get(key);
    if (value == null) {
      return defaultValue;
    }
    long parsed = parseBytes(value);
    if (parsed < min || parsed > max) {
      throw invalid(
          key,
          value,
          "a size from " + formatBytes(min) + " to " + formatBytes(max) + " (e.g. 64k, 128m, 1g)");
    }
    return parsed;
  }

  private long parseBytes(String value) {
    Matcher m = SIZE.matcher(value);
    if (!m.matches()) {
      return -1;
    }
    try {
      long number = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
      int shift;
      switch (unit.charAt(0)) {
        case 'k':
          shift = 10;
          break;
        case 'm':
          shift = 20;
          break;
        case 'g':
          shift = 30;
          break;
        case 't':
          shift = 40;
          break;
        default:
          shift = 0;
      }
      if (Long.numberOfLeadingZeros(number) <= shift) {
        return -1;
      }
      return number << shift;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Reads a duration such as {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}; a bare number is
   * read in {@code defaultUnit}.
   *
   * @param key the key
   * @param defaultValue used when the key is unset
   * @param defaultUnit the unit of a bare number: one of {@code ms s m h d}
   * @param min smallest accepted duration
   * @param max largest accepted duration
   * @return the duration
   * @throws InvalidConfigurationException when the value is not a duration in range
   */
  public Duration getDuration(
      String key, Duration defaultValue, String defaultUnit, Duration min, Duration max)
      throws InvalidConfigurationException {
    String value = get(key);
    if (value == null) {
      return defaultValue;
    }
    Matcher m = DURATION.matcher(value);
    Duration parsed = null;
    if (m.matches()) {
      try {
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? defaultUnit : m.group(2).toLowerCase(Locale.ROOT);
        switch (unit) {
          case "ms":
            parsed = Duration.ofMillis(n);
            break;
          case "s":
            parsed = Duration.ofSeconds(n);
            break;
          case "m":
            parsed = Duration.ofMinutes(n);
            break;
          case "h":
            parsed = Duration.ofHours(n);
            break;
          default:
            parsed = Duration.ofDays(n);
        }
      } catch (NumberFormatException | ArithmeticException e) {
        parsed = null;
      }
    }
    if (parsed == null || parsed.compareTo(min) < 0 || parsed.compareTo(max) > 0) {
      throw invalid(
          key, value, "a duration from " + min + " to " + max + " (e.g. 500ms, 30s, 5m, 1h)");
    }
    return parsed;
  }

  /**
   * Reads one of an enum's constants, spelled case-insensitively with {@code -} or {@code _}.
   *
   * @param key the key
   * @param type the enum
   * @param defaultValue used when the key is unset
   * @param <E> the enum type
   * @return the constant
   * @throws InvalidConfigurationException when the value names no constant
   */
  public <E extends Enum<E>> E getEnum(String key, Class<E> type, E defaultValue)
      throws InvalidConfigurationException {
    String value = get(key);
    if (value == null) {
      return defaultValue;
    }
    String wanted = value.replace('-', '_').toUpperCase(Locale.ROOT);
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equals(wanted)) {
        return constant;
      }
    }
    throw invalid(key, value, "one of " + spell(type));
  }

  /**
   * The accepted spellings of an enum, as documented.
   *
   * @param type the enum
   * @return e.g. {@code [backend, none]}
   */
  public static String spell(Class<? extends Enum<?>> type) {
    return Arrays.stream(type.getEnumConstants())
        .map(c -> c.name().toLowerCase(Locale.ROOT).replace('_', '-'))
        .collect(Collectors.joining(", ", "[", "]"));
  }

  /**
   * Turns one value of a key that names a local file or directory into a path: a value the local
   * filesystem cannot name (a NUL character, or what the platform refuses otherwise) is a bad value
   * of the key, not an {@link InvalidPathException} from wherever the path is first used.
   *
   * @param key the key, for the error
   * @param value the value, or one element of a list the key holds
   * @param absolute whether only an absolute path is accepted
   * @return the path
   * @throws InvalidConfigurationException naming the key when the value is no local path, or not
   *     absolute where that is required
   */
  public static Path localPath(String key, String value, boolean absolute)
      throws InvalidConfigurationException {
    String expected = absolute ? "an absolute local path" : "a local path";
    Path path;
    try {
      path = Paths.get(value);
    } catch (InvalidPathException e) {
      path = null;
    }
    if (path == null || (absolute && !path.isAbsolute())) {
      throw invalid(key, value, expected);
    }
    return path;
  }

  /**
   * Builds the error for a bad value; the value is quoted only when the key is not sensitive.
   *
   * @param key the key
   * @param value the rejected value
   * @param accepted what would have been accepted
   * @return the exception to throw
   */
  public static InvalidConfigurationException invalid(String key, String value, String accepted) {
    String shown = Secrets.isSensitive(key) ? "<redacted>" : "'" + value + "'";
    return new InvalidConfigurationException(
        "Invalid value " + shown + " for " + key + ": expected " + accepted);
  }

  /**
   * Formats a byte count with the largest exact binary unit.
   *
   * @param bytes the count
   * @return e.g. {@code 64k}, {@code 128m}, {@code 1000}
   */
  public static String formatBytes(long bytes) {
    String[] units = {"", "k", "m", "g", "t"};
    int i = 0;
    long v = bytes;
    while (i < units.length - 1 && v != 0 && (v & 1023) == 0) {
      v >>= 10;
      i++;
    }
    return v + units[i];
  }
}
