package dev.dtap.commit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
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
  void anEmptyPartReadsNothing() throws Exception {
    try (InputStream in = PartData.of(List.of(), 0).open()) {
      assertThat(in.read()).isEqualTo(-1);
    }
  }

  @Test
  void chunksTooSmallForTheLengthAreRefused() {
    assertThatThrownBy(() -> PartData.of(List.of(new byte[2]), 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fewer than 3");
  }
}
