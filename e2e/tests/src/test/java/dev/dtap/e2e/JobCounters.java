package dev.dtap.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The counters a MapReduce job client prints when its job ends ({@code name=value} lines). */
final class JobCounters {
  private static final Pattern COUNTER = Pattern.compile("^\\s+([A-Za-z][^=]*[^=\\s])=(\\d+)\\s*$");

  private JobCounters() {}

  /**
   * @param log the job client's output
   * @return every counter by its display name (a name printed twice keeps its last value)
   * @throws IOException if the log cannot be read
   */
  static Map<String, Long> parse(File log) throws IOException {
    Map<String, Long> counters = new TreeMap<>();
    for (String line : Files.readAllLines(log.toPath(), StandardCharsets.UTF_8)) {
      Matcher m = COUNTER.matcher(line);
      if (m.matches()) {
        counters.put(m.group(1).trim(), Long.parseLong(m.group(2)));
      }
    }
    return counters;
  }
}
