package dev.dtap.it.load;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One client process of the load test: {@code threads} readers over the objects {@code obj-0 ..
 * obj-<n-1>} of tap {@code load} for {@code seconds}, each read checked byte for byte against the
 * content {@link LoadContent} defines. Prints one line, {@code RESULT reads=.. bytes=.. errors=..
 * mismatches=.. peakHeapMiB=.. retainedHeapMiB=.. firstError=..}, and exits 0. The retained heap is
 * what the heap grew by from the filesystem's start to the readers' end, each after a full
 * collection.
 *
 * <p>Arguments: configuration XML, objects, object size, threads, seconds, and optionally a file:
 * the run then lasts the seconds and until the file appears.
 */
public final class LoadReader {
  private LoadReader() {}

  /** The heap in use after a full collection (an explicit one: this process runs no others). */
  private static long heapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    try (InputStream in = new FileInputStream(args[0])) {
      conf.addResource(in, args[0]);
      conf.size(); // load it while the stream is open
    }
    int objects = Integer.parseInt(args[1]);
    int size = Integer.parseInt(args[2]);
    int threads = Integer.parseInt(args[3]);
    long seconds = Long.parseLong(args[4]);
    // with a stop file, the readers also run until it exists (a test acts on the service meanwhile)
    java.io.File stop = args.length > 5 ? new java.io.File(args[5]) : null;
    FileSystem fs = FileSystem.newInstance(URI.create("dtap://load/"), conf);
    long before = heapAfterGc();
    AtomicLong reads = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    AtomicLong mismatches = new AtomicLong();
    StringBuffer firstError = new StringBuffer();
    long end = System.nanoTime() + seconds * 1_000_000_000L; // the load's length, not a test wait
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long seed = t * 7919L + ProcessHandle.current().pid();
      Thread w =
          new Thread(
              () -> {
                Random random = new Random(seed);
                byte[] buf = new byte[1 << 20];
                while (System.nanoTime() < end || (stop != null && !stop.exists())) {
                  int obj = random.nextInt(objects);
                  Path p = new Path("dtap://load/obj-" + obj);
                  try (FSDataInputStream in = fs.open(p)) {
                    if (random.nextBoolean()) {
                      long pos = 0;
                      int n;
                      while ((n = in.read(buf, 0, buf.length)) > 0) {
                        if (!LoadContent.matches(obj, pos, buf, n)) {
                          mismatches.incrementAndGet();
                        }
                        pos += n;
                        bytes.addAndGet(n);
                      }
                      if (pos != size) {
                        mismatches.incrementAndGet();
                      }
                    } else {
                      for (int i = 0; i < 8; i++) {
                        int len = 1 + random.nextInt(256 << 10);
                        long pos = (long) (random.nextDouble() * (size - len));
                        in.readFully(pos, buf, 0, len);
                        if (!LoadContent.matches(obj, pos, buf, len)) {
                          mismatches.incrementAndGet();
                        }
                        bytes.addAndGet(len);
                      }
                    }
                    reads.incrementAndGet();
                  } catch (IOException | RuntimeException | Error e) {
                    if (errors.incrementAndGet() == 1) {
                      firstError.append(e.toString().replace('\n', ' '));
                    }
                  }
                }
              },
              "load-" + t);
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    long fsBytes = 0;
    for (FileSystem.Statistics st : FileSystem.getAllStatistics()) {
      if ("dtap".equals(st.getScheme())) {
        fsBytes += st.getBytesRead();
      }
    }
    // what dtap keeps once its readers are done: its caches and queues, nothing per read
    long retained = heapAfterGc() - before;
    fs.close();
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    System.out.println(
        "RESULT reads="
            + reads
            + " bytes="
            + bytes
            + " dtapBytesRead="
            + fsBytes
            + " errors="
            + errors
            + " mismatches="
            + mismatches
            + " peakHeapMiB="
            + (peak >> 20)
            + " retainedHeapMiB="
            + (retained >> 20)
            + " firstError="
            + (firstError.length() == 0 ? "-" : firstError));
    System.out.flush();
    System.exit(0);
  }
}
