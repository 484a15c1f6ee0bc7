package dev.dtap.fs.config;

import java.util.Objects;

/**
 * One documented configuration key: its name, default and meaning.
 *
 * <p>Per-tap keys are written with the placeholder {@code <name>} for the tap name, for example
 * {@code fs.dtap.tap.<name>.readonly}; {@link #forTap(String)} gives the concrete key. Every key a
 * module reads is declared once as a {@code ConfigKey} constant and listed in the module's key
 * registry, which a test compares with {@code docs/configuration.md}.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ConfigKey {
  /** Placeholder for the tap name in per-tap keys. */
  public static final String TAP_PLACEHOLDER = "<name>";

  private final String name;
  private final String defaultValue;
  private final String description;

  private ConfigKey(String name, String defaultValue, String description) {
    this.name = Objects.requireNonNull(name, "name");
    this.defaultValue = defaultValue;
    this.description = Objects.requireNonNull(description, "description");
  }

  /**
   * Declares a key.
   *
   * @param name the key, with {@code <name>} standing for the tap in per-tap keys
   * @param defaultValue the default as it is documented, or {@code null} when the key has none
   *     (required, or derived from another key)
   * @param description one sentence for the documentation
   * @return the key
   */
  public static ConfigKey of(String name, String defaultValue, String description) {
    return new ConfigKey(name, defaultValue, description);
  }

  /** @return the key name, possibly containing {@code <name>} */
  public String name() {
    return name;
  }

  /** @return the documented default, or {@code null} when there is none */
  public String defaultValue() {
    return defaultValue;
  }

  /** @return the one-line description */
  public String description() {
    return description;
  }

  /** @return whether this key is specific to one tap */
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

  @Override
  public String toString() {
    return name;
  }
}
