package dev.dtap.fs.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.hadoop.conf.Configuration;

/**
 * Decides which configuration keys hold secrets, so that their values are never printed.
 *
 * <p>A key is sensitive when it matches dtap's own broad rule (anything naming a secret, password,
 * token, credential or key) or one of the patterns in Hadoop's {@code
 * hadoop.security.sensitive-config-keys}. Erring towards redaction is deliberate: a redacted
 * harmless value costs nothing, a printed secret cannot be taken back.
 *
 * <p>Immutable and thread-safe.
 */
public final class Secrets {
  private static final Pattern BUILT_IN =
      Pattern.compile(
          "(?i).*(secret|password|passwd|token|credential|signature|\\.key$|\\.key\\.|keystore|"
              + "truststore|access\\.key|session).*");

  /** The redaction marker used wherever a sensitive value would have been shown. */
  public static final String REDACTED = "<redacted>";

  private final List<Pattern> extra;

  private Secrets(List<Pattern> extra) {
    this.extra = extra;
  }

  /**
   * Builds a matcher that also honours {@code hadoop.security.sensitive-config-keys}.
   *
   * @param conf the site configuration
   * @return the matcher
   */
  public static Secrets from(Configuration conf) {
    List<Pattern> patterns = new ArrayList<>();
    for (String p : conf.getTrimmedStringCollection("hadoop.security.sensitive-config-keys")) {
      try {
        patterns.add(Pattern.compile(p));
      } catch (PatternSyntaxException e) {
        // Hadoop ignores malformed patterns too; the built-in rule still applies.
      }
    }
    return new Secrets(Collections.unmodifiableList(patterns));
  }

  /**
   * Whether a key is sensitive by dtap's built-in rule alone.
   *
   * @param key a configuration key
   * @return true if its value must never be printed
   */
  public static boolean isSensitive(String key) {
    return BUILT_IN.matcher(key).matches();
  }

  /**
   * Whether a key is sensitive by the built-in rule or the site's patterns.
   *
   * @param key a configuration key
   * @return true if its value must never be printed
   */
  public boolean sensitive(String key) {
    if (isSensitive(key)) {
      return true;
    }
    for (Pattern p : extra) {
      if (p.matcher(key).find()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The value as it may be shown.
   *
   * @param key the key
   * @param value its value
   * @return the value, or {@link #REDACTED} for a sensitive key
   */
  public String redact(String key, String value) {
    return sensitive(key) ? REDACTED : value;
  }
}
