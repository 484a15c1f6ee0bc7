package dev.dtap.fs.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;

/**
 * One configuration key, declared once: its name, type, default, accepted range and meaning.
 * Modules read a key only through its declaration ({@link #get(Configuration)} and the per-tap
 * forms), so no second place can read it with another default or range; {@code
 * docs/configuration.md} is pinned to the declarations by a test.
 *
 * <p>Per-tap keys are written with the placeholder {@code <name>} for the tap name, for example
 * {@code fs.dtap.tap.<name>.readonly}; {@link #forTap(String)} gives the concrete key.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param <T> the type of the key's value
 */
public final class ConfigKey<T> {
  /** Placeholder for the tap name in per-tap keys. */
  public static final String TAP_PLACEHOLDER = "<name>";

  /** How a typed value is read and checked. */
  @FunctionalInterface
  private interface Parser<T> {
    T read(ConfigReader reader, String key, T defaultValue) throws InvalidConfigurationException;
  }

  private final String name;
  private final Class<?> type;
  private final T defaultValue;
  private final String defaultText;
  private final String accepted;
  private final String description;
  private final Parser<T> parser;

  private ConfigKey(
      String name,
      Class<?> type,
      T defaultValue,
      String defaultText,
      String accepted,
      String description,
      Parser<T> parser) {
    this.name = Objects.requireNonNull(name, "name");
    this.type = type;
    this.defaultValue = defaultValue;
    this.defaultText = defaultText;
    this.accepted = accepted;
    this.description = Objects.requireNonNull(description, "description");
    this.parser = parser;
  }

  /**
   * Declares a key whose value is text, used as it is (class names, URIs, host lists, paths).
   *
   * @param name the key, with {@code <name>} standing for the tap in per-tap keys
   * @param defaultText the default as documented, or {@code null} when the key has none (required,
   *     or computed where the key is read, as the description says)
   * @param description one sentence for the documentation
   * @return the key; {@link #get(Configuration)} returns the trimmed value or null when unset
   */
  public static ConfigKey<String> text(String name, String defaultText, String description) {
    return new ConfigKey<>(
        name,
        String.class,
        null,
        defaultText,
        "any text",
        description,
        (r, k, d) -> {
          String v = r.get(k);
          return v != null ? v : d;
        });
  }

  /** As {@link #text}: the form every module used before keys were typed. */
  public static ConfigKey<String> of(String name, String defaultText, String description) {
    return text(name, defaultText, description);
  }

  /** Declares a key that is {@code true} or {@code false}. */
  public static ConfigKey<Boolean> bool(String name, boolean defaultValue, String description) {
    return new ConfigKey<>(
        name,
        Boolean.class,
        defaultValue,
        String.valueOf(defaultValue),
        "true or false",
        description,
        (r, k, d) -> r.getBoolean(k, d));
  }

  /** Declares an integer key within a closed range. */
  public static ConfigKey<Integer> integer(
      String name, int defaultValue, int min, int max, String description) {
    return new ConfigKey<>(
        name,
        Integer.class,
        defaultValue,
        String.valueOf(defaultValue),
        "an integer from " + min + " to " + max,
        description,
        (r, k, d) -> r.getInt(k, d, min, max));
  }

  /** Declares a byte size key ({@code 64k}, {@code 128m}, ...) within a closed range. */
  public static ConfigKey<Long> bytes(
      String name, long defaultValue, long min, long max, String description) {
    return new ConfigKey<>(
        name,
        Long.class,
        defaultValue,
        ConfigReader.formatBytes(defaultValue),
        "a size from " + ConfigReader.formatBytes(min) + " to " + ConfigReader.formatBytes(max),
        description,
        (r, k, d) -> r.getBytes(k, d, min, max));
  }

  /**
   * Declares a duration key within a closed range.
   *
   * @param unit the unit of a bare number: one of {@code ms s m h d}
   */
  public static ConfigKey<Duration> duration(
      String name,
      Duration defaultValue,
      String unit,
      Duration min,
      Duration max,
      String description) {
    return new ConfigKey<>(
        name,
        Duration.class,
        defaultValue,
        formatDuration(defaultValue),
        "a duration from "
            + formatDuration(min)
            + " to "
            + formatDuration(max)
            + " (a bare number in "
            + unit
            + ")",
        description,
        (r, k, d) -> r.getDuration(k, d, unit, min, max));
  }

  /** Declares a key naming one constant of an enum, spelled in lower case with {@code -}. */
  public static <E extends Enum<E>> ConfigKey<E> choice(
      String name, Class<E> type, E defaultValue, String description) {
    return new ConfigKey<>(
        name,
        type,
        defaultValue,
        defaultValue == null
            ? null
            : defaultValue.name().toLowerCase(Locale.ROOT).replace('_', '-'),
        "one of " + ConfigReader.spell(type),
        description,
        (r, k, d) -> r.getEnum(k, type, d));
  }

  /**
   * The same key documented with another default text, for defaults derived from other keys or from
   * the JVM (read with {@link #get(Configuration, Object)}).
   *
   * @param text e.g. {@code value of fs.dtap.cache.enabled}
   * @return the key
   */
  public ConfigKey<T> documentedDefault(String text) {
    return new ConfigKey<>(name, type, defaultValue, text, accepted, description, parser);
  }

  /**
   * Reads the key.
   *
   * @param conf the configuration
   * @return the value, or the declared default when unset
   * @throws InvalidConfigurationException if the value is not of the key's type and range; the
   *     message names the key and what it accepts
   */
  public T get(Configuration conf) throws InvalidConfigurationException {
    return read(conf, name, defaultValue);
  }

  /**
   * Reads the key with a default computed by the caller (documented with {@link
   * #documentedDefault}).
   *
   * @throws InvalidConfigurationException if the value is not of the key's type and range
   */
  public T get(Configuration conf, T computedDefault) throws InvalidConfigurationException {
    return read(conf, name, computedDefault);
  }

  /**
   * Reads a per-tap key for one tap.
   *
   * @throws InvalidConfigurationException if the value is not of the key's type and range
   * @throws IllegalStateException if this is not a per-tap key
   */
  public T getForTap(Configuration conf, String tap) throws InvalidConfigurationException {
    return read(conf, forTap(tap), defaultValue);
  }

  /**
   * Reads a per-tap key for one tap, with a default computed by the caller (usually the value of
   * the matching global key).
   *
   * @throws InvalidConfigurationException if the value is not of the key's type and range
   */
  public T getForTap(Configuration conf, String tap, T computedDefault)
      throws InvalidConfigurationException {
    return read(conf, forTap(tap), computedDefault);
  }

  private T read(Configuration conf, String key, T dflt) throws InvalidConfigurationException {
    return parser.read(new ConfigReader(conf), key, dflt);
  }

  /**
   * @return the key name, possibly containing {@code <name>}
   */
  public String name() {
    return name;
  }

  /**
   * @return the type of the value
   */
  public Class<?> type() {
    return type;
  }

  /**
   * @return the documented default, or {@code null} when there is none
   */
  public String defaultValue() {
    return defaultText;
  }

  /**
   * @return what the key accepts, e.g. {@code an integer from 1 to 16}
   */
  public String accepted() {
    return accepted;
  }

  /**
   * @return the one-line description
   */
  public String description() {
    return description;
  }

  /**
   * @return whether this key is specific to one tap
   */
  public boolean isPerTap() {
    return name.contains(TAP_PLACEHOLDER);
  }

  /**
   * The concrete key for one tap.
   *
   * @param tap the tap name
   * @return the key with {@code <name>} replaced by {@code tap}
   * @throws IllegalStateException if this is not a per-tap key
   */
  public String forTap(String tap) {
    if (!isPerTap()) {
      throw new IllegalStateException(name + " is not a per-tap key");
    }
    return name.replace(TAP_PLACEHOLDER, tap);
  }

  /**
   * The part of a per-tap key after {@code fs.dtap.tap.<name>.}, for example {@code readonly}.
   *
   * @return the suffix
   * @throws IllegalStateException if this is not a per-tap key
   */
  public String tapSuffix() {
    String prefix = "fs.dtap.tap." + TAP_PLACEHOLDER + ".";
    if (!name.startsWith(prefix)) {
      throw new IllegalStateException(name + " is not a per-tap key");
    }
    return name.substring(prefix.length());
  }

  /** A duration as documented: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}. */
  static String formatDuration(Duration d) {
    long ms = d.toMillis();
    if (ms % 1000 != 0) {
      return ms + "ms";
    }
    long s = ms / 1000;
    if (s != 0 && s % 3600 == 0) {
      return s / 3600 + "h";
    }
    if (s != 0 && s % 60 == 0 && s >= 300) {
      return s / 60 + "m";
    }
    return s + "s";
  }

  @Override
  public String toString() {
    return name;
  }
}
