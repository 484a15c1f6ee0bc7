package dev.dtap.fs.contract.local;

import dev.dtap.fs.contract.LocalDtapContract;
import java.io.EOFException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/**
 * Hadoop 3.3's vectored-read contract on dtap over a local directory. The local backend is
 * checksummed and knows the file length, so a range past the end fails at once, which Hadoop 3.3's
 * suite leaves to each filesystem to assert (3.4 reads a capability flag instead).
 */
public class TestLocalDtapContractVectoredRead extends AbstractContractVectoredReadTest {
  public TestLocalDtapContractVectoredRead(String bufferType) {
    super(bufferType);
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new LocalDtapContract(conf);
  }

  @Override
  public void testEOFRanges() throws Exception {
    List<FileRange> ranges = new ArrayList<>();
    ranges.add(FileRange.createFileRange(DATASET_LEN, 100));
    verifyExceptionalVectoredRead(getFileSystem(), ranges, EOFException.class);
  }
}
