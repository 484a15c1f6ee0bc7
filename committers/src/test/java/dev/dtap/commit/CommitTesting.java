package dev.dtap.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.commit.record.JobLayout;
import dev.dtap.commit.record.JournalEntry;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.ObjectInfo;
import dev.dtap.commit.tap.BackendHidingStore;
import dev.dtap.commit.tap.CommitTap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * What committer tests outside this package need of its internals: the failure-injection seam of
 * job commit and a view of a job's journal and pending uploads; and the lines the tests' jobs
 * write.
 */
public final class CommitTesting {
  private CommitTesting() {}

  /** A journaled upload. */
  public static final class Upload {
    public final String key;
    public final String uploadId;

    Upload(String key, String uploadId) {
      this.key = key;
      this.uploadId = uploadId;
    }

    @Override
    public String toString() {
      return key + "#" + uploadId;
    }
  }

  /**
   * Installs a listener called at each step of job commit on the tap of a destination, through the
   * filesystem {@code dest.getFileSystem(conf)} gives (the committers' own, where Hadoop's
   * filesystem cache is on); null removes it.
   *
   * @param dest a dtap path on the tap
   * @param conf the configuration the committers use
   * @param listener gets the step name and, for completes, the count so far
   * @throws IOException if the path's filesystem has no committers
   */
  public static void onCommitStep(Path dest, Configuration conf, StepListener listener)
      throws IOException {
    CommitTap.of(dest.getFileSystem(conf), "test")
        .steps()
        .setListener(listener == null ? null : listener::reached);
  }

  /** Called at each step of job commit. */
  public interface StepListener {
    void reached(String step, long count) throws IOException;
  }

  /**
   * @return the store of the tap a dtap path is on, as its factory made it (without the tap's
   *     rewriting of errors), so that tests can look into the implementation
   */
  public static MultipartStore store(Path dest, Configuration conf) throws IOException {
    MultipartStore store = CommitTap.of(dest.getFileSystem(conf), "test").store("test");
    return store instanceof BackendHidingStore ? ((BackendHidingStore) store).delegate() : store;
  }

  /**
   * @return how many task attempts the committers of a tap still hold state for in this JVM
   */
  public static int attemptsHeld(Path dest, Configuration conf) throws IOException {
    return CommitTap.of(dest.getFileSystem(conf), "test").attempts().size();
  }

  /**
   * Every upload a job's journal names.
   *
   * @param dest the job's destination
   * @param conf configuration with the tap
   * @param jobUuid the job's unique id
   * @return the uploads
   */
  public static List<Upload> journaled(Path dest, Configuration conf, String jobUuid)
      throws IOException {
    FileSystem fs = dest.getFileSystem(conf);
    CommitTap tap = CommitTap.of(fs, "test");
    MultipartStore store = tap.store("test");
    JobLayout layout = new JobLayout(tap.key(fs.makeQualified(dest)), jobUuid);
    List<Upload> out = new ArrayList<>();
    RemoteIterator<ObjectInfo> it = store.list(layout.journalRoot());
    while (it.hasNext()) {
      String key = it.next().key();
      JournalEntry e = JournalEntry.decode(store.get(key).get(), key);
      out.add(new Upload(e.key(), e.uploadId()));
    }
    return out;
  }

  /**
   * The uploads of a list that are still pending, asked of the store with list-parts one by one.
   *
   * @return the pending ones
   */
  public static List<Upload> pending(Path dest, Configuration conf, List<Upload> uploads)
      throws IOException {
    MultipartStore store = store(dest, conf);
    List<Upload> out = new ArrayList<>();
    for (Upload u : uploads) {
      if (store.listParts(u.key, u.uploadId).isPresent()) {
        out.add(u);
      }
    }
    return out;
  }

  /**
   * @return whether any object of the job's directory is left
   */
  public static boolean jobDirExists(Path dest, Configuration conf, String jobUuid)
      throws IOException {
    FileSystem fs = dest.getFileSystem(conf);
    CommitTap tap = CommitTap.of(fs, "test");
    JobLayout layout = new JobLayout(tap.key(fs.makeQualified(dest)), jobUuid);
    return tap.store("test").list(layout.jobDir()).hasNext();
  }

  /**
   * @param task the task's number
   * @return the one line the committer tests' jobs write to task {@code task}'s file
   */
  public static String taskLine(int task) {
    return "line of task " + task + "\n";
  }

  /**
   * Binds dtap's committers to a configuration as a job's would be: the factory for the scheme, the
   * committer by name, the job's output directory.
   *
   * @param conf a configuration with the tap
   * @param committer {@code magic} or {@code staging}
   * @param dest the job's output directory
   * @return {@code conf}
   */
  public static Configuration bindCommitter(Configuration conf, String committer, Path dest) {
    conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", DataTapCommitterFactory.class.getName());
    conf.set(CommitterKeys.NAME.name(), committer);
    conf.set(FileOutputFormat.OUTDIR, dest.toString());
    return conf;
  }

  /**
   * Asserts that each task's file {@code part-<t>} holds its {@link #taskLine} and that the job
   * wrote {@code _SUCCESS}, read through a filesystem instance of its own.
   */
  public static void assertTaskFiles(Path dest, Configuration conf, int tasks) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(dest.toUri(), conf)) {
      for (int t = 0; t < tasks; t++) {
        try (FSDataInputStream in = fs.open(new Path(dest, "part-" + t))) {
          assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
              .as("part-%d", t)
              .isEqualTo(taskLine(t));
        }
      }
      assertThat(fs.exists(new Path(dest, "_SUCCESS"))).as("_SUCCESS").isTrue();
    }
  }
}
