package dev.dtap.it.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.AbstractCommitProtocolTest;
import dev.dtap.commit.DataTapCommitterFactory;
import dev.dtap.it.fixtures.HdfsFixture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;

/**
 * The commit protocol scenarios on an HDFS tap with the {@code file} committer (Hadoop's
 * FileOutputCommitter through the dtap factory), which the factory also picks by default there.
 */
class ITestFileCommitProtocolHdfs extends AbstractCommitProtocolTest {
  private static int dirs;

  @Override
  protected String committerName() {
    return "file";
  }

  @Override
  protected Configuration newConfiguration() throws Exception {
    Configuration conf = new Configuration(HdfsFixture.get().conf());
    conf.set("fs.dtap.tap.commithdfs.uri", HdfsFixture.get().uri() + "/taps/commits");
    // Hadoop 3.4 defaults to algorithm 2, which publishes each task's files at task commit; the
    // protocol (nothing visible before job commit) is algorithm 1's
    conf.setInt("mapreduce.fileoutputcommitter.algorithm.version", 1);
    return conf;
  }

  @Override
  protected synchronized Path newDestination() {
    return new Path("dtap://commithdfs/out-" + (++dirs));
  }

  @Test
  void theFactoryPicksTheFileCommitterForHdfsTaps() throws Exception {
    Configuration c = new Configuration(conf);
    c.unset("fs.dtap.committer.name");
    c.set("mapreduce.outputcommitter.factory.scheme.dtap", DataTapCommitterFactory.class.getName());
    TaskAttemptContextImpl t =
        new TaskAttemptContextImpl(
            c, TaskAttemptID.forName("attempt_202611220000_0001_m_000000_0"));
    assertThat(PathOutputCommitterFactory.createCommitter(dest, t))
        .isInstanceOf(FileOutputCommitter.class);
  }
}
