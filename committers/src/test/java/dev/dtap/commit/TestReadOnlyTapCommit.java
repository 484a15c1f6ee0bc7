package dev.dtap.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.config.CommitterKeys;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No committer writes through a read-only tap: a job run to its end with each committer is refused
 * with AccessControlException, and the destination never appears.
 */
class TestReadOnlyTapCommit {
  @ParameterizedTest
  @ValueSource(strings = {"magic", "staging", "file"})
  void aReadOnlyTapRefusesEveryCommitter(String committer) throws Exception {
    Configuration conf = LocalCommitProtocolSupport.conf();
    conf.setBoolean("fs.dtap.tap.commit.readonly", true);
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    conf.set(CommitterKeys.NAME.name(), committer);
    conf.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", DataTapCommitterFactory.class.getName());
    Path dest = LocalCommitProtocolSupport.newDestination();
    conf.set(FileOutputFormat.OUTDIR, dest.toString());
    JobID id = new JobID("2026112", 4);
    JobContext job = new JobContextImpl(conf, id);
    TaskAttemptContext task =
        new TaskAttemptContextImpl(conf, new TaskAttemptID(new TaskID(id, TaskType.MAP, 0), 0));
    assertThatThrownBy(
            () -> {
              PathOutputCommitter c = PathOutputCommitterFactory.createCommitter(dest, task);
              c.setupJob(job);
              c.setupTask(task);
              FileSystem fs = c.getWorkPath().getFileSystem(conf);
              try (FSDataOutputStream out = fs.create(new Path(c.getWorkPath(), "part-0"), true)) {
                out.write("x".getBytes(StandardCharsets.UTF_8));
              }
              c.commitTask(task);
              c.commitJob(job);
            })
        .as(committer + " committer on a read-only tap")
        .isInstanceOf(AccessControlException.class)
        .hasMessageContaining("read-only");
    Configuration writable = LocalCommitProtocolSupport.conf();
    writable.setBoolean("fs.dtap.impl.disable.cache", true);
    try (FileSystem fs = FileSystem.newInstance(dest.toUri(), writable)) {
      assertThat(fs.exists(dest)).as("destination after a refused job").isFalse();
    }
  }
}
