package dev.dtap.fs.testing;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Puts what Hadoop's metrics show into the build's secret scan (see {@link Canary}): after each
 * test, before its {@code @AfterEach} closes what it opened, every attribute of every MBean in
 * JMX's {@code Hadoop} domain is appended to {@code <dtap.it.logs>/metrics-<test class>.txt}, which
 * the scan reads. That domain holds the metrics2 sources of dtap's filesystems, of its cache
 * service and of S3A; a source's attributes are its tags and metrics as every metrics2 sink
 * receives them (a sink is handed the same records), so a secret in a tag, a metric's name or a
 * description cannot pass unnoticed. Registered for every test by JUnit's extension auto-detection
 * (the build sets {@code junit.jupiter.extensions.autodetection.enabled}).
 *
 * <p>Thread-safe; a line already written by this JVM is not written again.
 */
public final class MetricsInLeakScan implements AfterTestExecutionCallback {
  private static final Set<String> WRITTEN = ConcurrentHashMap.newKeySet();

  @Override
  public void afterTestExecution(ExtensionContext context) throws IOException, JMException {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    StringBuilder lines = new StringBuilder();
    for (ObjectName name : new TreeSet<>(server.queryNames(new ObjectName("Hadoop:*"), null))) {
      MBeanAttributeInfo[] attributes;
      try {
        attributes = server.getMBeanInfo(name).getAttributes();
      } catch (InstanceNotFoundException gone) {
        continue; // unregistered since the query: a filesystem closed by another thread
      }
      for (MBeanAttributeInfo a : attributes) {
        String line = name + " " + a.getName() + "=" + value(server, name, a.getName()) + "\n";
        if (WRITTEN.add(line)) {
          lines.append(line);
        }
      }
    }
    if (lines.length() > 0) {
      append(
          new File(dir(), "metrics-" + context.getRequiredTestClass().getName() + ".txt"), lines);
    }
  }

  private static String value(MBeanServer server, ObjectName name, String attribute) {
    try {
      Object v = server.getAttribute(name, attribute);
      return v instanceof Object[] ? Arrays.deepToString((Object[]) v) : String.valueOf(v);
    } catch (JMException | RuntimeException e) {
      return "(unreadable: " + e.getClass().getSimpleName() + ")";
    }
  }

  private static File dir() {
    return new File(System.getProperty("dtap.it.logs", "target/it-logs"));
  }

  private static synchronized void append(File file, CharSequence lines) throws IOException {
    Files.createDirectories(file.getParentFile().toPath());
    Files.write(
        file.toPath(),
        lines.toString().getBytes(StandardCharsets.UTF_8),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }
}
