package dev.dtap.it.cnode;

import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.URI;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * A task JVM of the cache service tests: reads one dtap file whole, pass after pass, and prints
 * {@code PASS <n> crc=<crc32> bytes=<n>} after each and {@code RESULT passes=.. mismatches=..
 * backend=.. fallbacks=..} at the end ({@code backend}: bytes this JVM read from the store, by
 * dtap's own counter). Runs {@code passes} passes, or with a negative count until the file named by
 * the last argument exists.
 *
 * <p>Arguments: configuration XML, dtap path, expected CRC-32, passes, [stop file].
 */
public final class CnodeReader {
  private CnodeReader() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    try (InputStream in = new FileInputStream(args[0])) {
      conf.addResource(in, args[0]);
      conf.size();
    }
    Path path = new Path(args[1]);
    long expected = Long.parseLong(args[2]);
    int passes = Integer.parseInt(args[3]);
    File stop = args.length > 4 ? new File(args[4]) : null;
    FileSystem fs = FileSystem.newInstance(URI.create(args[1]), conf);
    int mismatches = 0;
    int done = 0;
    byte[] buf = new byte[1 << 20];
    while (passes < 0 ? !stop.exists() : done < passes) {
      CRC32 crc = new CRC32();
      long bytes = 0;
      try (FSDataInputStream in = fs.open(path)) {
        int n;
        while ((n = in.read(buf)) > 0) {
          crc.update(buf, 0, n);
          bytes += n;
        }
      }
      if (crc.getValue() != expected) {
        mismatches++;
      }
      done++;
      System.out.println("PASS " + done + " crc=" + crc.getValue() + " bytes=" + bytes);
      System.out.flush();
    }
    Map<String, Long> c = ((IOStatisticsSource) fs).getIOStatistics().counters();
    System.out.println(
        "RESULT passes="
            + done
            + " mismatches="
            + mismatches
            + " backend="
            + c.getOrDefault("dtap_cache_bytes_from_backend", 0L)
            + " fallbacks="
            + c.getOrDefault("dtap_cache_cnode_fallbacks", 0L)
            + " hits="
            + c.getOrDefault("dtap_cache_hits", 0L));
    fs.close();
  }
}
