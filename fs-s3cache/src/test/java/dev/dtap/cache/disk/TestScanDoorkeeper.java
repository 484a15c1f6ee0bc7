package dev.dtap.cache.disk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class TestScanDoorkeeper {
  private static List<PageKey> keys(int n, long seed) {
    Random r = new Random(seed);
    List<PageKey> keys = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      keys.add(new PageKey(r.nextLong() | 1, r.nextLong()));
    }
    return keys;
  }

  @Test
  void aPageIsSeenTheSecondTimeAndForgottenAfterAClear() {
    ScanDoorkeeper d = ScanDoorkeeper.inMemory();
    List<PageKey> keys = keys(50_000, 1);
    int firstSightings = 0;
    for (PageKey k : keys) {
      if (!d.seenBefore(k)) {
        firstSightings++;
      }
    }
    assertThat(firstSightings).isGreaterThan(49_800); // a few hash collisions at most
    assertThat(keys).allMatch(d::contains);

    d.clear();

    assertThat(keys).noneMatch(d::contains);
    assertThat(d.seenBefore(keys.get(0))).isFalse();
    assertThat(d.seenBefore(keys.get(0))).isTrue();
  }

  @Test
  void aClearDuringConcurrentSightingsLeavesNothingBehindForTheNextClear() throws Exception {
    ScanDoorkeeper d = ScanDoorkeeper.inMemory();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        List<PageKey> mine = keys(20_000, 10 + t);
        writers.add(pool.submit(() -> mine.forEach(d::seenBefore)));
      }
      for (int i = 0; i < 20; i++) {
        d.clear();
      }
      for (Future<?> w : writers) {
        w.get();
      }
    } finally {
      pool.shutdown();
    }

    d.clear(); // every bit set, whenever it was set, is marked and so cleared

    for (int t = 0; t < 4; t++) {
      assertThat(keys(20_000, 10 + t)).noneMatch(d::contains);
    }
  }

  private static Path sightingsFile() throws Exception {
    return new File(LocalTaps.newDir("sightings"), ScanDoorkeeper.FILE_NAME).toPath();
  }

  @Test
  void twoMappingsOfTheHostFileShareEverySightingAndItsClear() throws Exception {
    Path file = sightingsFile();
    ScanDoorkeeper taskOne = ScanDoorkeeper.open(file); // as the first task's JVM maps it
    List<PageKey> keys = keys(1_000, 2);
    for (PageKey k : keys) {
      assertThat(taskOne.seenBefore(k)).isFalse();
    }

    ScanDoorkeeper taskTwo = ScanDoorkeeper.open(file); // the next task's JVM, on the same host
    assertThat(keys).allMatch(taskTwo::contains);
    assertThat(taskTwo.seenBefore(keys.get(0))).isTrue();
    assertThat(Files.size(file)).isEqualTo(ScanDoorkeeper.SIZE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");

    taskTwo.clear();
    assertThat(keys).noneMatch(taskOne::contains);
  }

  @Test
  void aShortFileOrOneThisClassDidNotWriteIsMadeUsable() throws Exception {
    Path file = sightingsFile();
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3})); // a torn start: shorter than the set
    }
    ScanDoorkeeper fromShort = ScanDoorkeeper.open(file);
    assertThat(Files.size(file)).isEqualTo(ScanDoorkeeper.SIZE);
    assertThat(fromShort.seenBefore(keys(1, 4).get(0))).isFalse();

    byte[] garbage = new byte[ScanDoorkeeper.SIZE];
    Arrays.fill(garbage, (byte) 0xA5); // a negative count, every word and mark set
    Files.write(file, garbage);

    ScanDoorkeeper d = ScanDoorkeeper.open(file);

    List<PageKey> keys = keys(1_000, 3);
    int first = 0;
    for (PageKey k : keys) {
      if (!d.seenBefore(k)) {
        first++;
      }
    }
    assertThat(first).as("sightings start afresh").isGreaterThan(990);
    assertThat(keys).allMatch(ScanDoorkeeper.open(file)::contains);
  }

  @Test
  void theRoomOneJvmRecordsIsWhatTheNextFindsBeforeItsOwnScan() throws Exception {
    Path file = sightingsFile();
    ScanDoorkeeper first = ScanDoorkeeper.open(file);
    assertThat(first.hostWasFull()).as("a new host file: nobody has looked").isFalse();

    first.recordRoom(false); // the first JVM filled the cache
    ScanDoorkeeper next = ScanDoorkeeper.open(file);
    assertThat(next.hostWasFull()).isTrue();

    next.recordRoom(true); // and the next evicted below 90 %
    assertThat(first.hostWasFull()).isFalse();
  }
}
