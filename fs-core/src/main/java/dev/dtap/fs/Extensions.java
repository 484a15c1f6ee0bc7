package dev.dtap.fs;

import dev.dtap.fs.config.ConfigKey;
import dev.dtap.fs.spi.ExtensionFactory;
import dev.dtap.fs.spi.LocalityResolverFactory;
import dev.dtap.fs.spi.OutputHookFactory;
import dev.dtap.fs.spi.ReadCacheFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The extension factories found through {@link ServiceLoader} in dtap's own class loader. fs-core
 * knows no implementation module; the cache, locality and committer modules register here.
 *
 * <p>Immutable and thread-safe.
 */
final class Extensions {
  private static volatile Extensions instance;

  private final List<ReadCacheFactory> readCaches;
  private final List<LocalityResolverFactory> localityResolvers;
  private final List<OutputHookFactory> outputHooks;

  Extensions(
      List<ReadCacheFactory> readCaches,
      List<LocalityResolverFactory> localityResolvers,
      List<OutputHookFactory> outputHooks) {
    this.readCaches = Collections.unmodifiableList(readCaches);
    this.localityResolvers = Collections.unmodifiableList(localityResolvers);
    this.outputHooks = Collections.unmodifiableList(outputHooks);
  }

  /**
   * @return the extensions on dtap's class path, discovered once
   */
  static Extensions discover() {
    Extensions e = instance;
    if (e == null) {
      ClassLoader loader = Extensions.class.getClassLoader();
      e =
          new Extensions(
              load(ReadCacheFactory.class, loader),
              load(LocalityResolverFactory.class, loader),
              load(OutputHookFactory.class, loader));
      instance = e;
    }
    return e;
  }

  private static <T> List<T> load(Class<T> type, ClassLoader loader) {
    // The same implementation can be visible twice (a module jar beside the dtap-hadoop jar);
    // keep one per class name.
    Map<String, T> byName = new LinkedHashMap<>();
    try {
      for (T t : ServiceLoader.load(type, loader)) {
        byName.putIfAbsent(t.getClass().getName(), t);
      }
    } catch (ServiceConfigurationError e) {
      throw new IllegalStateException(
          "A dtap extension registered for " + type.getSimpleName() + " failed to load", e);
    }
    return new ArrayList<>(byName.values());
  }

  List<ReadCacheFactory> readCaches() {
    return readCaches;
  }

  List<LocalityResolverFactory> localityResolvers() {
    return localityResolvers;
  }

  List<OutputHookFactory> outputHooks() {
    return outputHooks;
  }

  /**
   * @return every key the extensions read, for configuration validation
   */
  Collection<ConfigKey<?>> keys() {
    List<ConfigKey<?>> keys = new ArrayList<>();
    List<ExtensionFactory> all = new ArrayList<>();
    all.addAll(readCaches);
    all.addAll(localityResolvers);
    all.addAll(outputHooks);
    for (ExtensionFactory f : all) {
      keys.addAll(f.keys());
    }
    return keys;
  }
}
