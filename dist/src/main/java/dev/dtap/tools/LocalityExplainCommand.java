package dev.dtap.tools;

import dev.dtap.fs.config.DataTapKeys;
import dev.dtap.fs.spi.TapExtensions;
import dev.dtap.locality.TapLocalityAdmin;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code dtap locality explain}: the blocks of files, their hosts, and where the hosts come from.
 */
final class LocalityExplainCommand implements Command {
  @Override
  public String name() {
    return "locality explain";
  }

  @Override
  public String arguments() {
    return "[--json] [--timeout <seconds>] <dtap path>";
  }

  @Override
  public String summary() {
    return "blocks of a file (or of the files in a directory), their hosts, and the membership"
        + " source";
  }

  @Override
  public Set<String> flags() {
    return Collections.singleton("--json");
  }

  @Override
  public Set<String> options() {
    return Collections.singleton("--timeout");
  }

  @Override
  public String details() {
    return "Reads the membership source first (waiting up to --timeout, default 30 s), so the\n"
        + "hosts are those a job planned now would get. Exit code 1 when the source cannot be"
        + " read.";
  }

  @Override
  public int run(Invocation in) throws Exception {
    Path path = Taps.dtapPath(in.single("dtap path"));
    Duration timeout = Duration.ofSeconds(in.seconds("--timeout", 30));
    String tap = Taps.tapOf(path);
    int status = DtapTool.OK;
    try (FileSystem fs = Taps.openFor(in.conf(), path)) {
      Report report = new Report();
      Optional<TapLocalityAdmin> admin = TapExtensions.find(fs, TapLocalityAdmin.class);
      if (admin.isPresent()) {
        TapLocalityAdmin a = admin.get();
        report.field("membership source", a.membershipSource());
        try {
          a.refreshMembership(timeout);
        } catch (IOException e) {
          report.note("Membership source cannot be read: " + e.getMessage());
          status = DtapTool.PROBLEM;
        }
        long age = a.membershipAgeMillis();
        report.field("membership age ms", age < 0 ? null : age);
        report.field("hosts", a.hosts());
        report.field("placement block size", a.placementBlockSize());
      } else {
        report.note(
            "Locality is off for tap '"
                + tap
                + "' ("
                + DataTapKeys.TAP_LOCALITY.forTap(tap)
                + "): the locations below are the backend's");
      }
      Report.Table t =
          report.table("blocks", "file", "block:count", "offset:bytes", "length:bytes", "hosts");
      for (FileStatus f : Taps.files(fs, path, false)) {
        BlockLocation[] blocks = fs.getFileBlockLocations(f, 0, f.getLen());
        for (int i = 0; i < blocks.length; i++) {
          BlockLocation b = blocks[i];
          t.row(
              f.getPath().toString(),
              (long) i,
              b.getOffset(),
              b.getLength(),
              Arrays.asList(b.getHosts()));
        }
      }
      report.print(in.out(), in.json());
      return status;
    }
  }
}
