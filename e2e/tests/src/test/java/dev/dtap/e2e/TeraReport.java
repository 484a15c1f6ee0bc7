package dev.dtap.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** What TeraValidate wrote: its report text and the checksum in it. */
final class TeraReport {
  final String text;

  private TeraReport(String text) {
    this.text = text;
  }

  /**
   * @param fs the filesystem of the report
   * @param dir TeraValidate's output directory
   * @return the report of its part files
   * @throws IOException if they cannot be read
   */
  static TeraReport read(FileSystem fs, Path dir) throws IOException {
    StringBuilder text = new StringBuilder();
    for (FileStatus s : fs.listStatus(dir, p -> p.getName().startsWith("part-"))) {
      try (FSDataInputStream in = fs.open(s.getPath())) {
        text.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    return new TeraReport(text.toString());
  }

  /**
   * @return whether TeraValidate found misordered rows or other errors
   */
  boolean hasErrors() {
    return text.contains("misorder") || text.contains("error");
  }

  /**
   * @return the checksum line's value, or null when there is none
   */
  String checksum() {
    for (String line : text.split("\n")) {
      if (line.startsWith("checksum")) {
        return line.split("\t")[1].trim();
      }
    }
    return null;
  }
}
