package dev.dtap.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A Java process of its own with a class path the test chooses, as a user's {@code hadoop} or
 * {@code spark-submit} command starts one; its output goes to a log file under {@code dtap.it.logs}
 * that a failing test names.
 */
final class ChildJvm {
  private static final AtomicInteger RUNS = new AtomicInteger();

  /**
   * JVM options for a process that lives seconds (a client, a command, a local-mode job): on two
   * shared cores the JIT's second tier and a parallel collector cost it more than they save.
   */
  static final String[] SHORT_LIVED = {"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"};

  /** How a finished process ended. */
  static final class Result {
    final int exit;
    final String stdout;
    final File log;

    Result(int exit, String stdout, File log) {
      this.exit = exit;
      this.stdout = stdout;
      this.log = log;
    }

    /**
     * @return the last lines of the process's output, for assertion messages
     */
    String tail() {
      try {
        List<String> lines = Files.readAllLines(log.toPath(), StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
      } catch (IOException e) {
        return "(no log: " + e + ")";
      }
    }
  }

  private final List<String> classpath = new ArrayList<>();
  private final List<String> jvmArgs = new ArrayList<>();
  private final String name;
  private File workDir;
  private final Map<String, String> env = new LinkedHashMap<>();

  ChildJvm(String name) {
    this.name = name;
    for (String opens : System.getProperty("dtap.test.addOpens", "").split(" ")) {
      if (!opens.isEmpty()) {
        jvmArgs.add(opens);
      }
    }
  }

  ChildJvm classpath(List<String> entries) {
    classpath.addAll(entries);
    return this;
  }

  /**
   * Sets the working directory (where Hadoop's mini clusters put their logs and data).
   *
   * @param dir the directory
   * @return this
   */
  ChildJvm workDir(File dir) {
    this.workDir = dir;
    return this;
  }

  /**
   * Sets an environment variable of the process.
   *
   * @param name the variable
   * @param value its value
   * @return this
   */
  ChildJvm env(String name, String value) {
    env.put(name, value);
    return this;
  }

  ChildJvm jvmArg(String... args) {
    jvmArgs.addAll(Arrays.asList(args));
    return this;
  }

  private ProcessBuilder builder(String main, List<String> args, File stdout, File log) {
    List<String> cmd = new ArrayList<>();
    cmd.add(new File(System.getProperty("java.home"), "bin/java").getAbsolutePath());
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(String.join(File.pathSeparator, classpath));
    cmd.add(main);
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    if (workDir != null) {
      pb.directory(workDir);
    }
    pb.environment().putAll(env);
    pb.redirectOutput(stdout);
    pb.redirectError(log);
    return pb;
  }

  private File logFile(String suffix) throws IOException {
    File dir = new File(System.getProperty("dtap.it.logs", "target/it-logs"));
    Files.createDirectories(dir.toPath());
    // the test JVM's pid too: test JVMs side by side share the directory
    return new File(
        dir, name + "-" + ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet() + suffix);
  }

  /**
   * Runs a main class to its end.
   *
   * @param main the class
   * @param timeoutMinutes how long it may take before it is killed and the test fails
   * @param args its arguments
   * @return how it ended
   * @throws IOException if it cannot start, or outlives the timeout
   */
  Result run(String main, int timeoutMinutes, String... args) throws IOException {
    File log = logFile(".log");
    File stdout = logFile(".out");
    Process p = builder(main, Arrays.asList(args), stdout, log).start();
    try {
      if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new IOException(
            main + " did not finish within " + timeoutMinutes + " minutes; see " + log);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      throw new IOException("interrupted waiting for " + main, e);
    }
    return new Result(
        p.exitValue(),
        new String(Files.readAllBytes(stdout.toPath()), StandardCharsets.UTF_8),
        log);
  }

  /**
   * Starts a main class that keeps running; it ends when its standard input closes.
   *
   * @param main the class
   * @param args its arguments
   * @return the process and where its output goes
   * @throws IOException if it cannot start
   */
  Running start(String main, String... args) throws IOException {
    File log = logFile(".log");
    File stdout = logFile(".out");
    ProcessBuilder pb = builder(main, Arrays.asList(args), stdout, log);
    pb.redirectInput(ProcessBuilder.Redirect.PIPE);
    return new Running(pb.start(), stdout, log);
  }

  /** A process that runs until the test stops it. */
  static final class Running implements AutoCloseable {
    final Process process;
    final File stdout;
    final File log;

    Running(Process process, File stdout, File log) {
      this.process = process;
      this.stdout = stdout;
      this.log = log;
    }

    /**
     * Waits, polling, until the process prints a line starting with a word.
     *
     * @param word the start of the line
     * @param timeoutMinutes how long to wait at most
     * @return the line
     * @throws IOException if the process ends or the time runs out first
     */
    String awaitLine(String word, int timeoutMinutes) throws IOException {
      return await(stdout, line -> line.startsWith(word), word, timeoutMinutes);
    }

    /**
     * Waits, polling, until the process logs a line containing a text.
     *
     * @param text what the line contains
     * @param timeoutMinutes how long to wait at most
     * @return the line
     * @throws IOException if the process ends or the time runs out first
     */
    String awaitLog(String text, int timeoutMinutes) throws IOException {
      return await(log, line -> line.contains(text), text, timeoutMinutes);
    }

    private String await(File file, Predicate<String> wanted, String what, int timeoutMinutes)
        throws IOException {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(timeoutMinutes);
      while (System.nanoTime() < deadline) {
        for (String line : Files.readAllLines(file.toPath(), StandardCharsets.ISO_8859_1)) {
          if (wanted.test(line)) {
            return line;
          }
        }
        if (!process.isAlive()) {
          throw new IOException(
              "The process ended ("
                  + process.exitValue()
                  + ") before printing "
                  + what
                  + "; see "
                  + log);
        }
        try {
          process.waitFor(200, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", e);
        }
      }
      throw new IOException("No " + what + " within " + timeoutMinutes + " minutes; see " + log);
    }

    @Override
    public void close() throws IOException {
      process.getOutputStream().close(); // the process stops when its input closes
      try {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
          process.descendants().forEach(ProcessHandle::destroyForcibly);
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }
}
