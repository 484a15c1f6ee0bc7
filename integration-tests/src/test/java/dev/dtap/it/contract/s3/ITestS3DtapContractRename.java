package dev.dtap.it.contract.s3;

import static org.apache.hadoop.fs.contract.ContractTestUtils.dataset;
import static org.apache.hadoop.fs.contract.ContractTestUtils.verifyFileContents;
import static org.apache.hadoop.fs.contract.ContractTestUtils.writeDataset;

import dev.dtap.it.contract.S3DtapContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractContractRenameTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/**
 * Hadoop's rename contract on dtap over S3A (MinIO). Two cases follow S3A's documented semantics,
 * which dtap passes through, instead of POSIX's: asserted positively, not skipped.
 */
public class ITestS3DtapContractRename extends AbstractContractRenameTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new S3DtapContract(conf);
  }

  /** S3A returns false when renaming a directory onto an existing non-empty directory. */
  @Override
  public void testRenameDirIntoExistingDir() throws Throwable {
    describe("rename into an existing non-empty directory returns false on S3A");
    FileSystem fs = getFileSystem();
    Path srcDir = path("source");
    Path srcFile = new Path(srcDir, "source-256.txt");
    byte[] src = dataset(256, 'a', 'z');
    writeDataset(fs, srcFile, src, src.length, 1024, false);
    Path destDir = path("dest");
    byte[] dest = dataset(512, 'A', 'Z');
    writeDataset(fs, new Path(destDir, "dest-512.txt"), dest, dest.length, 1024, false);
    // AssertJ by name: the JUnit 4 base class of Hadoop 3.3/3.4 has an assertThat of its own
    org.assertj.core.api.Assertions.assertThat(fs.rename(srcDir, destDir))
        .as("rename onto a non-empty directory")
        .isFalse();
    verifyFileContents(fs, srcFile, src);
  }

  /** An object store has no directories, so a path under a file is just another key. */
  @Override
  public void testRenameFileUnderFileSubdir() throws Exception {
    describe("rename to a path under a file is allowed on S3A");
    FileSystem fs = getFileSystem();
    Path base = methodPath();
    Path file = new Path(base, "file");
    byte[] data = dataset(16, 'a', 'z');
    writeDataset(fs, file, data, data.length, 1024, false);
    Path src = new Path(base, "src");
    writeDataset(fs, src, data, data.length, 1024, false);
    Path target = new Path(file, "parent/target");
    org.assertj.core.api.Assertions.assertThat(fs.rename(src, target))
        .as("rename under a file")
        .isTrue();
    verifyFileContents(fs, target, data);
    verifyFileContents(fs, file, data);
  }
}
