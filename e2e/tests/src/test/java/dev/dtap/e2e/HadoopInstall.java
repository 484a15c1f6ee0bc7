package dev.dtap.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Hadoop as the drop-in tests run it: Hadoop's own jars (listed by {@code e2e/hadoop-app}'s build),
 * a configuration directory the test writes (as {@code HADOOP_CONF_DIR}), and the dtap-hadoop jar.
 * No dtap module class is on this class path: only the shaded jar.
 */
final class HadoopInstall {
  private HadoopInstall() {}

  /**
   * @return the dtap-hadoop jar, built by the dist module
   */
  static File dtapJar() {
    File jar = new File(System.getProperty("dtap.jar", "missing"));
    if (!jar.isFile()) {
      throw new IllegalStateException(
          "No dtap-hadoop jar at " + jar + ": build it with ./mvnw -pl e2e/tests -am verify");
    }
    return jar;
  }

  /**
   * The class path of a Hadoop process.
   *
   * @param confDir the configuration directory, first, or null
   * @return the entries
   * @throws IOException if the Hadoop class path was not built
   */
  static List<String> classpath(File confDir) throws IOException {
    File app = new File(System.getProperty("dtap.e2e.hadoop.app", "missing"));
    File cpFile = new File(app, "hadoop.classpath");
    if (!cpFile.isFile()) {
      throw new IOException(
          "No Hadoop class path at " + cpFile + ": build it with ./mvnw -pl e2e/tests -am verify");
    }
    List<String> cp = new ArrayList<>();
    if (confDir != null) {
      cp.add(confDir.getAbsolutePath());
    }
    cp.add(new File(app, "classes").getAbsolutePath());
    String listed = new String(Files.readAllBytes(cpFile.toPath()), StandardCharsets.UTF_8).trim();
    for (String e : Arrays.asList(listed.split(File.pathSeparator))) {
      if (!e.contains("dtap-")) { // never a dtap module: only the shaded jar below
        cp.add(e);
      }
    }
    cp.add(dtapJar().getAbsolutePath());
    return cp;
  }
}
