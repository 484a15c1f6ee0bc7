package dev.dtap.commit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestPartData {
  @Test
  void chunksReadInOrderUpToTheLengthAndAgainOnReopen() throws Exception {
    byte[] a = {1, 2, 3};
    byte[] b = {4, 5};
    byte[] c = {6, 7, 8, 9};
    PartData part = PartData.of(List.of(a, b, c), 7);

    assertThat(part.length()).isEqualTo(7);
    for (int attempt = 0; attempt < 2; attempt++) { // a retried request reads the part again
      try (InputStream in = part.open()) {
        assertThat(in.readAllBytes()).containsExactly(1, 2, 3, 4, 5, 6, 7);
      }
    }
  }

  @Test
  void buffersShareThePartsArraysUpToTheLengthAndStartAfreshOnEachCall() {
    byte[] a = {1, 2, 3};
    byte[] b = {4, 5, 6, 7};
    PartData part = PartData.of(List.of(new byte[0], a, b, new byte[] {9}), 5);

    List<ByteBuffer> first = part.buffers();
    assertThat(first).hasSize(2);
    assertThat(first.get(0).array()).isSameAs(a); // sent as it is, not copied
    assertThat(first.get(1).array()).isSameAs(b); // a last array used in part is not copied either
    assertThat(first.get(1).position()).isZero();
    assertThat(first.get(1).remaining()).isEqualTo(2);

    first.get(0).get(new byte[3]); // a sender consumes one
    assertThat(part.buffers().get(0).remaining()).isEqualTo(3); // a resend starts at the start
  }

  @Test
  void aPartOnDiskHasNoBuffers() throws Exception {
    assertThat(PartData.ofFile(java.nio.file.Path.of("unused"), 0, 1).buffers()).isNull();
  }

  @Test
  void emptyArraysAnywhereAreSkippedByStreamAndBlocksAlike() throws Exception {
    PartData part =
        PartData.of(List.of(new byte[0], new byte[] {1, 2}, new byte[0], new byte[] {3, 4}), 3);
    try (InputStream in = part.open()) {
      assertThat(in.readAllBytes()).containsExactly(1, 2, 3);
    }
    java.io.ByteArrayOutputStream blocks = new java.io.ByteArrayOutputStream();
    part.forEachBlock(blocks::write);
    assertThat(blocks.toByteArray()).containsExactly(1, 2, 3);
  }

  @Test
  void anEmptyPartReadsNothing() throws Exception {
    try (InputStream in = PartData.of(List.of(), 0).open()) {
      assertThat(in.read()).isEqualTo(-1);
    }
  }

  @Test
  void aChecksumSeesExactlyTheBytesAPartSends() throws Exception {
    byte[] a = new byte[70_000];
    byte[] b = new byte[5_000];
    new java.util.Random(7).nextBytes(a);
    new java.util.Random(8).nextBytes(b);
    PartData inMemory = PartData.of(List.of(a, b), 72_000);
    java.nio.file.Path file = java.nio.file.Files.createTempFile("part", ".bin");
    try {
      byte[] whole = new byte[80_000];
      System.arraycopy(a, 0, whole, 1_000, a.length);
      System.arraycopy(b, 0, whole, 71_000, b.length);
      java.nio.file.Files.write(file, whole);
      PartData onDisk = PartData.ofFile(file, 1_000, 72_000);

      java.util.zip.CRC32C expected = new java.util.zip.CRC32C();
      try (InputStream in = inMemory.open()) {
        expected.update(in.readAllBytes());
      }
      for (PartData part : List.of(inMemory, onDisk)) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        part.update(crc);
        assertThat(crc.getValue()).isEqualTo(expected.getValue());
      }
    } finally {
      java.nio.file.Files.delete(file);
    }
  }

  @Test
  void chunksTooSmallForTheLengthAreRefused() {
    assertThatThrownBy(() -> PartData.of(List.of(new byte[2]), 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fewer than 3");
  }
}
