package dev.dtap.commit;

import dev.dtap.commit.config.CommitterConfig;
import dev.dtap.commit.tap.CommitTap;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;

/**
 * The output committer factory for {@code dtap://} destinations:
 *
 * <pre>
 * mapreduce.outputcommitter.factory.scheme.dtap = dev.dtap.commit.DataTapCommitterFactory
 * </pre>
 *
 * It makes the committer {@code fs.dtap.committer.name} names ({@code magic}, {@code staging} or
 * {@code file}); unset, {@code magic} on a tap whose backend has multipart uploads (S3) and
 * Hadoop's {@code FileOutputCommitter} elsewhere (HDFS, where rename is cheap and atomic).
 * MapReduce (through {@code FileOutputFormat}), Spark (through {@code PathOutputCommitProtocol})
 * and the old MapReduce API (through {@link DataTapMapredCommitter}) use it.
 */
public class DataTapCommitterFactory extends PathOutputCommitterFactory {
  /** Created by Hadoop through reflection. */
  public DataTapCommitterFactory() {}

  @Override
  public PathOutputCommitter createOutputCommitter(Path outputPath, TaskAttemptContext context)
      throws IOException {
    if (outputPath == null) {
      return createFileOutputCommitter(null, context);
    }
    FileSystem fs = outputPath.getFileSystem(context.getConfiguration());
    if (!"dtap".equals(fs.getUri().getScheme())) {
      throw new IOException(
          "DataTapCommitterFactory commits to dtap:// paths only, not "
              + outputPath
              + "; bind it with mapreduce.outputcommitter.factory.scheme.dtap");
    }
    CommitterConfig config = CommitterConfig.parse(context.getConfiguration());
    CommitterConfig.Name name = config.name();
    if (name == null) {
      name =
          CommitTap.of(fs, "DataTapCommitterFactory").served()
              ? CommitterConfig.Name.MAGIC
              : CommitterConfig.Name.FILE;
    }
    switch (name) {
      case MAGIC:
        return new MagicCommitter(outputPath, context);
      case STAGING:
        return new StagingCommitter(outputPath, context);
      default:
        return createFileOutputCommitter(outputPath, context);
    }
  }
}
