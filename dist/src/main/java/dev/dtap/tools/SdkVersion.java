package dev.dtap.tools;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Optional;

/** Which AWS SDK the class path has, for the doctor: v2 (Hadoop 3.4 and later) or v1 (3.3). */
final class SdkVersion {
  private SdkVersion() {}

  /**
   * @return e.g. {@code AWS SDK v2 2.29.52}, or empty when there is none
   */
  static Optional<String> find() {
    try {
      Class<?> v2 = Class.forName("software.amazon.awssdk.core.util.VersionInfo");
      Field f = v2.getField("SDK_VERSION");
      return Optional.of("AWS SDK v2 " + f.get(null));
    } catch (ReflectiveOperationException | LinkageError e) {
      // not v2
    }
    try {
      Class<?> v1 = Class.forName("com.amazonaws.util.VersionInfoUtils");
      Method m = v1.getMethod("getVersion");
      return Optional.of("AWS SDK v1 " + m.invoke(null));
    } catch (ReflectiveOperationException | LinkageError e) {
      return Optional.empty();
    }
  }
}
