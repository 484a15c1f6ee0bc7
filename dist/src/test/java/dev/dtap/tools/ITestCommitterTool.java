package dev.dtap.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.it.fixtures.MinioFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;

/**
 * {@code dtap committer recover} on MinIO: a job that died before its commit leaves a pending
 * upload; a dry run reports it, recovery aborts it.
 */
class ITestCommitterTool {
  @Test
  void recoverAbortsAJobThatDiedBeforeCommit() throws Exception {
    MinioFixture minio = MinioFixture.get();
    String bucket = minio.createBucket("tool");
    Configuration conf = new Configuration();
    minio.addTap(conf, "tooltap", bucket, "");
    Path dest = new Path("dtap://tooltap/out");
    JobID job = new JobID("202611220000", 7);
    new MagicJob(conf, dest, job, "orphan");
    assertThat(pending(minio, bucket)).hasSize(1);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    DtapTool tool =
        new DtapTool(new PrintStream(out, true, "UTF-8"), new PrintStream(err, true, "UTF-8"));
    assertThat(
            ToolRunner.run(
                conf, tool, new String[] {"committer", "recover", "--dry-run", dest.toString()}))
        .isZero();
    assertThat(out.toString("UTF-8"))
        .contains(job.toString() + ": would be aborted")
        .contains("1 uploads aborted");
    assertThat(pending(minio, bucket)).hasSize(1);

    out.reset();
    assertThat(ToolRunner.run(conf, tool, new String[] {"committer", "recover", dest.toString()}))
        .isZero();
    assertThat(out.toString("UTF-8"))
        .contains(job.toString() + ": aborted (0 files completed, 1 uploads aborted)");
    assertThat(pending(minio, bucket)).isEmpty();
    out.reset();
    assertThat(ToolRunner.run(conf, tool, new String[] {"committer", "recover", dest.toString()}))
        .isZero();
    assertThat(out.toString("UTF-8")).contains("No unfinished jobs");
  }

  private static java.util.List<?> pending(MinioFixture minio, String bucket) {
    ListMultipartUploadsResponse r =
        minio.client().listMultipartUploads(b -> b.bucket(bucket).prefix("out/part-0"));
    return r.uploads();
  }
}
