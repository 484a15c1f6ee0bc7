package dev.dtap.fs.contract.local;

import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_BYTES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_EXCEPTIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_SEEK_OPERATIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_SKIP_BYTES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_SKIP_OPERATIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_WRITE_BYTES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_WRITE_EXCEPTIONS;

import dev.dtap.fs.contract.LocalDtapContract;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractStreamIOStatisticsTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/**
 * Hadoop's stream IOStatistics contract on dtap over a local directory: the streams' statistics
 * must pass through dtap unchanged. The hooks describe the local backend's streams, which read
 * through a 1 KiB checksum buffer and write in checksum chunks.
 */
public class TestLocalDtapContractStreamIOStatistics
    extends AbstractContractStreamIOStatisticsTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new LocalDtapContract(conf);
  }

  @Override
  public List<String> inputStreamStatisticKeys() {
    return Arrays.asList(
        STREAM_READ_BYTES,
        STREAM_READ_EXCEPTIONS,
        STREAM_READ_SEEK_OPERATIONS,
        STREAM_READ_SKIP_OPERATIONS,
        STREAM_READ_SKIP_BYTES);
  }

  @Override
  public List<String> outputStreamStatisticKeys() {
    return Arrays.asList(STREAM_WRITE_BYTES, STREAM_WRITE_EXCEPTIONS);
  }

  @Override
  public int readBufferSize() {
    return 1024;
  }

  @Override
  public boolean streamWritesInBlocks() {
    return true;
  }
}
