package dev.dtap.locality;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Hosts from a local file, one per line, {@code #} starting a comment. The file is re-read only
 * when its modification time or size changes.
 */
final class HostsFile implements MembershipProvider {
  private final Path file;
  private long lastModified = Long.MIN_VALUE;
  private long lastSize = -1;
  private List<String> last = new ArrayList<>();

  HostsFile(Path file) {
    this.file = file;
  }

  @Override
  public Collection<String> hosts() throws IOException {
    BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class);
    long modified = attrs.lastModifiedTime().toMillis();
    if (modified != lastModified || attrs.size() != lastSize) {
      List<String> hosts = new ArrayList<>();
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        int hash = line.indexOf('#');
        String h = (hash >= 0 ? line.substring(0, hash) : line).trim();
        if (!h.isEmpty()) {
          hosts.add(h);
        }
      }
      last = hosts;
      lastModified = modified;
      lastSize = attrs.size();
    }
    return last;
  }

  @Override
  public String describe() {
    return "hosts file " + file;
  }
}
