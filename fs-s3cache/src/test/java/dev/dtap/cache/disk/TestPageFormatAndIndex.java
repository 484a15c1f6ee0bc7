package dev.dtap.cache.disk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class TestPageFormatAndIndex {
  private static Path write(PageKey key, byte[] data) throws Exception {
    Path p = new File(LocalTaps.newDir("pagefile"), key.fileName()).toPath();
    try (FileChannel ch =
        FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ch.write(PageFile.header(key, data, data.length));
      ch.write(ByteBuffer.wrap(data));
    }
    return p;
  }

  @Test
  void pagesRoundTripAndEveryChunkIsChecked() throws Exception {
    byte[] data = new byte[300_000];
    new Random(1).nextBytes(data);
    PageKey key = new PageKey(42, 43);
    Path p = write(key, data);
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      PageFile.Header h = PageFile.readHeader(ch, key, ch.size());
      assertThat(h.length).isEqualTo(data.length);
      byte[] part = new byte[1000];
      PageFile.read(ch, h, 70_000, part, 0, part.length);
      assertThat(part).isEqualTo(java.util.Arrays.copyOfRange(data, 70_000, 71_000));
      assertThatThrownBy(() -> PageFile.readHeader(ch, new PageKey(42, 44), ch.size()))
          .isInstanceOf(PageFile.CorruptPageException.class)
          .hasMessageContaining("another key");
      assertThatThrownBy(() -> PageFile.readHeader(ch, key, ch.size() - 1))
          .isInstanceOf(PageFile.CorruptPageException.class);
    }
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ch.write(
          ByteBuffer.wrap(new byte[] {(byte) (data[200_000] ^ 1)}),
          ch.size() - data.length + 200_000);
      PageFile.Header h = PageFile.readHeader(ch, key, ch.size());
      byte[] ok = new byte[100];
      PageFile.read(ch, h, 0, ok, 0, 100); // other chunks still verify
      assertThatThrownBy(() -> PageFile.read(ch, h, 199_990, new byte[20], 0, 20))
          .isInstanceOf(PageFile.CorruptPageException.class)
          .hasMessageContaining("checksum");
      ch.write(ByteBuffer.wrap(new byte[] {0x55}), 20); // the header itself
      assertThatThrownBy(() -> PageFile.readHeader(ch, key, ch.size()))
          .isInstanceOf(PageFile.CorruptPageException.class);
    }
  }

  /** A page file as version 1 wrote it: 64 KiB chunks, data right after the header. */
  private static byte[] versionOne(PageKey key, byte[] data, int version) {
    int chunk = 64 << 10;
    int chunks = (data.length + chunk - 1) / chunk;
    ByteBuffer h = ByteBuffer.allocate(32 + 4 * chunks + 4 + data.length);
    h.putInt(0x44545031).putInt(version).putInt(data.length).putInt(chunk);
    h.putLong(key.hi()).putLong(key.lo());
    CRC32C crc = new CRC32C();
    for (int c = 0; c < chunks; c++) {
      crc.reset();
      crc.update(data, c * chunk, Math.min(chunk, data.length - c * chunk));
      h.putInt((int) crc.getValue());
    }
    crc.reset();
    crc.update(h.array(), 0, h.position());
    h.putInt((int) crc.getValue());
    h.put(data);
    return h.array();
  }

  @Test
  void pagesOfVersionOneAreStillReadAndOtherVersionsAreCorrupt() throws Exception {
    byte[] data = new byte[200_001];
    new Random(3).nextBytes(data);
    PageKey key = new PageKey(7, 8);
    assertThat(PageFile.decode(versionOne(key, data, 1), key)).isEqualTo(data);
    Path p = new File(LocalTaps.newDir("pagefile"), key.fileName()).toPath();
    java.nio.file.Files.write(p, versionOne(key, data, 1));
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      PageFile.Header h = PageFile.readHeader(ch, key, ch.size());
      byte[] part = new byte[70_000];
      PageFile.read(ch, h, 60_000, part, 0, part.length);
      assertThat(part).isEqualTo(java.util.Arrays.copyOfRange(data, 60_000, 130_000));
    }
    assertThatThrownBy(() -> PageFile.decode(versionOne(key, data, 3), key))
        .isInstanceOf(PageFile.CorruptPageException.class)
        .hasMessageContaining("version 3");
    // the current version's header ends on a 4 KiB boundary, where the data starts
    assertThat(PageFile.encode(key, data, data.length))
        .hasSize(PageFile.headerSize(data.length) + data.length);
    assertThat(PageFile.headerSize(data.length) % 4096).isZero();
  }

  @Test
  void pageKeysAreDistinctPerVersionAndPage() {
    Set<PageKey> keys = new HashSet<>();
    for (int page = 0; page < 1000; page++) {
      keys.add(new PageKey(page * 31L, page));
    }
    assertThat(keys).hasSize(1000);
    PageKey k = new PageKey(-1, 0x0123456789abcdefL);
    assertThat(PageKey.parse(k.fileName())).isEqualTo(k);
    assertThat(PageKey.parse("not-a-page")).isNull();
  }

  @Test
  void theIndexHoldsPagesInUnderAHundredBytesEach() {
    DiskIndex index = new DiskIndex();
    Random r = new Random(7);
    int n = 200_000;
    PageKey[] keys = new PageKey[n];
    for (int i = 0; i < n; i++) {
      keys[i] = new PageKey(r.nextLong(), r.nextLong());
      assertThat(index.put(keys[i], 1 << 20, i % 3, i)).isEqualTo(-1);
    }
    assertThat(index.size()).isEqualTo(n);
    double perPage = (double) index.memoryBytes() / n;
    System.out.printf("disk index: %.1f bytes of heap per page over %d pages%n", perPage, n);
    assertThat(perPage).isLessThanOrEqualTo(100);
    for (int i = 0; i < n; i += 2) {
      assertThat(index.remove(keys[i])).isEqualTo(1 << 20);
    }
    for (int i = 0; i < n; i++) {
      assertThat(index.contains(keys[i])).as("key %d", i).isEqualTo(i % 2 == 1);
    }
    // the least recently used of a sample goes first
    PageKey victim = index.victim(1);
    assertThat(victim).isNotNull();
    assertThat(index.contains(victim)).isTrue();
  }
}
