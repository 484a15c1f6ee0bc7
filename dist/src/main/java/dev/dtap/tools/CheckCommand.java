package dev.dtap.tools;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** {@code dtap check <tap>}: open a tap, stat its root and list a few entries. */
final class CheckCommand implements Command {
  @Override
  public String name() {
    return "check";
  }

  @Override
  public String arguments() {
    return "<tap>";
  }

  @Override
  public String summary() {
    return "open a tap, stat its root and list a few entries (doctor checks more)";
  }

  @Override
  public int run(Invocation in) throws Exception {
    String tap = in.single("tap name");
    Configuration conf = in.conf();
    Path root = new Path("dtap://" + tap + "/");
    try (FileSystem fs = Taps.open(conf, tap)) {
      FileStatus st = fs.getFileStatus(root);
      in.out()
          .println(
              "tap " + tap + ": root " + st.getPath() + " is a directory: " + st.isDirectory());
      FileStatus[] entries = fs.listStatus(root);
      in.out().println("entries: " + entries.length);
      for (int i = 0; i < Math.min(entries.length, 10); i++) {
        FileStatus e = entries[i];
        in.out().printf("  %s %12d %s%n", e.isDirectory() ? "d" : "-", e.getLen(), e.getPath());
      }
      return DtapTool.OK;
    }
  }
}
