package dev.dtap.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The drop-in jar holds only dtap's classes and relocated third-party code (never the AWS SDK,
 * which S3 taps take from S3A's own class path), and works in a class loader that has nothing but
 * Hadoop's client jars.
 */
class ITestShadedJar {
  private static File jar() {
    File jar = new File(System.getProperty("dtap.jar", "target/missing.jar"));
    assertThat(jar).as("the shaded jar built by this module").isFile();
    return jar;
  }

  @Test
  void everyClassIsDtapOrRelocated() throws IOException {
    Set<String> offending = new TreeSet<>();
    Set<String> services = new TreeSet<>();
    int classes = 0;
    try (JarFile jar = new JarFile(jar())) {
      Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        JarEntry entry = entries.nextElement();
        String name = entry.getName();
        if (entry.isDirectory()) {
          continue;
        }
        if (name.endsWith(".class")) {
          classes++;
          String clean =
              name.startsWith("META-INF/versions/")
                  ? name.replaceFirst("META-INF/versions/\\d+/", "")
                  : name;
          if (!clean.startsWith("dev/dtap/")) {
            offending.add(name);
          }
        } else if (name.startsWith("META-INF/services/")) {
          services.add(name.substring("META-INF/services/".length()));
        } else if (name.startsWith("META-INF/native/")
            && !name.endsWith("/")
            && !name.startsWith("META-INF/native/libdev_dtap_shaded_")
            && !name.startsWith("META-INF/native/dev_dtap_shaded_")) {
          offending.add(name);
        }
      }
    }
    assertThat(classes).isGreaterThan(20);
    assertThat(offending).as("classes or native libraries outside dev/dtap/").isEmpty();
    assertThat(services).contains("org.apache.hadoop.fs.FileSystem");
    for (String service : services) {
      assertThat(service)
          .as("service files name dtap SPIs, Hadoop SPIs or relocated ones")
          .matches("(dev\\.dtap\\..*|org\\.apache\\.hadoop\\..*)");
    }
  }

  /** The shaded jar with nothing but Hadoop's client jars, as on a cluster. */
  private static URLClassLoader isolatedLoader() throws IOException {
    File clientDir = new File(System.getProperty("dtap.hadoop.client.dir", "target/hadoop-client"));
    File[] clientJars = clientDir.listFiles((d, n) -> n.endsWith(".jar"));
    assertThat(clientJars).as("Hadoop client jars in " + clientDir).isNotEmpty();
    List<URL> urls = new ArrayList<>();
    urls.add(jar().toURI().toURL());
    for (File f : clientJars) {
      urls.add(f.toURI().toURL());
    }
    return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
  }

  @Test
  void loadsWithOnlyHadoopClientJars() throws Exception {
    File root = Files.createTempDirectory(new File("target").toPath(), "shaded-root").toFile();
    ClassLoader saved = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader loader = isolatedLoader()) {
      // Hadoop loads configured classes through the context class loader, as in a real client
      Thread.currentThread().setContextClassLoader(loader);
      Class<?> fsClass = Class.forName("dev.dtap.fs.DataTapFileSystem", true, loader);
      assertThat(fsClass.getClassLoader()).isSameAs(loader);
      Class<?> confClass = Class.forName("org.apache.hadoop.conf.Configuration", true, loader);
      Object conf = confClass.getConstructor().newInstance();
      Method set = confClass.getMethod("set", String.class, String.class);
      set.invoke(conf, "fs.dtap.tap.shaded.uri", root.toURI().toString());
      set.invoke(conf, "fs.dtap.impl.disable.cache", "true");
      Class<?> fsBase = Class.forName("org.apache.hadoop.fs.FileSystem", true, loader);
      // found through META-INF/services, with no fs.dtap.impl set
      Object fs =
          fsBase
              .getMethod("newInstance", URI.class, confClass)
              .invoke(null, URI.create("dtap://shaded/"), conf);
      assertThat(fs.getClass().getName()).isEqualTo("dev.dtap.fs.DataTapFileSystem");
      Class<?> pathClass = Class.forName("org.apache.hadoop.fs.Path", true, loader);
      Object dir = pathClass.getConstructor(String.class).newInstance("dtap://shaded/made/here");
      assertThat((Boolean) fsBase.getMethod("mkdirs", pathClass).invoke(fs, dir)).isTrue();
      assertThat(new File(root, "made/here")).isDirectory();
      fsBase.getMethod("close").invoke(fs);
    } finally {
      Thread.currentThread().setContextClassLoader(saved);
    }
  }
}
