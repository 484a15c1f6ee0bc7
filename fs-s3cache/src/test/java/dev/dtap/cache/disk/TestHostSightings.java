package dev.dtap.cache.disk;

import static dev.dtap.cache.disk.TestScanDoorkeeper.keys;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The host's sightings file, opened as two JVMs of the host open it. */
class TestHostSightings {
  private static Path dir() throws IOException {
    return LocalTaps.newDir("sightings").toPath();
  }

  @Test
  void whatOneJvmMetTheNextFindsAndAClearThroughEitherForgetsIt() throws Exception {
    Path dir = dir();
    List<PageKey> keys = keys(1_000, 2);
    try (HostSightings taskOne = HostSightings.open(dir);
        HostSightings taskTwo = HostSightings.open(dir)) {
      for (PageKey k : keys) {
        assertThat(taskOne.seenBefore(k)).isFalse();
      }
      assertThat(keys).allMatch(taskTwo::contains);
      assertThat(taskTwo.seenBefore(keys.get(0))).isTrue();

      taskTwo.clear();
      try (HostSightings taskThree = HostSightings.open(dir)) {
        assertThat(keys).noneMatch(taskThree::contains);
      }
    }
    Path file = dir.resolve(HostSightings.FILE_NAME);
    assertThat(Files.size(file)).isEqualTo(HostSightings.SIZE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    try (HostSightings afterRestart = HostSightings.open(dir)) {
      assertThat(afterRestart.seenBefore(keys.get(1))).isFalse();
      assertThat(HostSightings.open(dir).seenBefore(keys.get(1))).isTrue();
    }
  }

  @Test
  void noDescriptorOfTheFileIsHeldOpenForWriting() throws Exception {
    Path dir = dir();
    try (HostSightings s = HostSightings.open(dir)) {
      for (PageKey k : keys(100, 3)) {
        s.seenBefore(k);
      }
      s.recordRoom(false);
      Path file = dir.resolve(HostSightings.FILE_NAME).toRealPath();
      List<Integer> modes = new ArrayList<>();
      try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
        for (Path fd : (Iterable<Path>) fds::iterator) {
          Path target;
          try {
            target = Files.readSymbolicLink(fd);
          } catch (IOException e) {
            continue; // the listing's own descriptor, closed by now
          }
          if (target.equals(file)) {
            String info =
                Files.readString(Path.of("/proc/self/fdinfo/" + fd.getFileName().toString()));
            String flags = info.lines().filter(l -> l.startsWith("flags:")).findFirst().get();
            modes.add(Integer.parseInt(flags.substring(6).trim(), 8) & 3);
          }
        }
      }
      assertThat(modes).as("access modes of the descriptors open on the file").containsExactly(0);
    }
  }

  @Test
  void aShortFileOrOneThisClassDidNotWriteIsMadeUsable() throws Exception {
    Path dir = dir();
    Path file = dir.resolve(HostSightings.FILE_NAME);
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3})); // a torn start: shorter than the set
    }
    try (HostSightings fromShort = HostSightings.open(dir)) {
      assertThat(Files.size(file)).isEqualTo(HostSightings.SIZE);
      assertThat(fromShort.seenBefore(keys(1, 4).get(0))).isFalse();
    }

    byte[] garbage = new byte[HostSightings.SIZE];
    Arrays.fill(garbage, (byte) 0xA5); // a negative count and every bit set
    Files.write(file, garbage);

    List<PageKey> keys = keys(1_000, 3);
    try (HostSightings d = HostSightings.open(dir)) {
      int first = 0;
      for (PageKey k : keys) {
        if (!d.seenBefore(k)) {
          first++;
        }
      }
      assertThat(first).as("sightings start afresh").isGreaterThan(990);
      assertThat(d.hostWasFull()).isFalse();
    }
  }

  @Test
  void theRoomOneJvmRecordsIsWhatTheNextFindsBeforeItsOwnScan() throws Exception {
    Path dir = dir();
    try (HostSightings first = HostSightings.open(dir)) {
      assertThat(first.hostWasFull()).as("a new host file: nobody has looked").isFalse();
      first.recordRoom(false); // the first JVM filled the cache
      try (HostSightings next = HostSightings.open(dir)) {
        assertThat(next.hostWasFull()).isTrue();
        next.recordRoom(true); // and the next evicted below 90 %
        assertThat(first.hostWasFull()).isFalse();
      }
    }
  }

  @Test
  void aReaderInterruptedAsItReadsLeavesTheFileToTheOthers() throws Exception {
    Path dir = dir();
    List<PageKey> keys = keys(2, 8);
    try (HostSightings s = HostSightings.open(dir);
        HostSightings other = HostSightings.open(dir)) {
      Thread.currentThread().interrupt(); // as an engine kills a speculative task's reader
      boolean first = s.seenBefore(keys.get(0));
      assertThat(Thread.interrupted()).as("the interrupt is left to its caller").isTrue();
      assertThat(first).isFalse();

      assertThat(s.seenBefore(keys.get(1))).isFalse();
      assertThat(other.contains(keys.get(1)))
          .as("the next reader records through the file again")
          .isTrue();
    }
  }

  @Test
  void aFileThatCannotBeUsedLeavesThisJvmItsOwnSightings() throws Exception {
    Path dir = dir();
    HostSightings s = HostSightings.open(dir);
    PageKey met = keys(1, 5).get(0);
    assertThat(s.seenBefore(met)).isFalse();
    Files.delete(dir.resolve(HostSightings.FILE_NAME)); // an operator empties the directory
    PageKey next = keys(2, 6).get(1);
    assertThat(s.seenBefore(next)).as("recording fails; this JVM remembers").isFalse();
    assertThat(s.seenBefore(next)).isTrue();
    s.close();
    assertThat(s.seenBefore(met)).as("closed: this JVM's own sightings answer").isTrue();
    assertThat(s.contains(keys(3, 7).get(2))).isFalse();

    File notADir = new File(LocalTaps.newDir("sightings-file"), "plain");
    Files.write(notADir.toPath(), new byte[] {1});
    try (HostSightings own = HostSightings.open(notADir.toPath())) {
      assertThat(own.seenBefore(met)).isFalse();
      assertThat(own.seenBefore(met)).isTrue();
      own.recordRoom(false);
      assertThat(own.hostWasFull()).isTrue();
    }
  }
}
