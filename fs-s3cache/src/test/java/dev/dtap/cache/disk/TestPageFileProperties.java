package dev.dtap.cache.disk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.fs.testing.PropertyRuns;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Generated pages (lengths from empty to several read slices) and generated ranges of them: every
 * range reads back exactly, into any place of a larger buffer, and a flipped bit anywhere in the
 * chunks a range touches fails it, while a range that touches no damaged chunk still reads.
 */
@AddLifecycleHook(PropertyRuns.class)
class TestPageFileProperties {
  private static PageFile.Source source(byte[] file) {
    return (dst, position) -> {
      if (position >= file.length) {
        return -1;
      }
      // short reads on purpose: a source may return fewer bytes than asked
      int n = (int) Math.min(Math.min(dst.remaining(), 100_000), file.length - position);
      dst.put(file, (int) position, n);
      return n;
    };
  }

  @Property
  void everyRangeReadsBackExactlyAndDamageIsCaught(
      @ForAll @IntRange(min = 0, max = 3 << 20) int length,
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 1 << 30) int offsetDraw,
      @ForAll @IntRange(min = 0, max = 1 << 30) int lengthDraw,
      @ForAll @IntRange(min = 0, max = 1 << 30) int damageDraw)
      throws Exception {
    byte[] data = new byte[length];
    new Random(seed).nextBytes(data);
    PageKey key = new PageKey(seed, length);
    byte[] file = PageFile.encode(key, data, length);
    PageFile.Header h = PageFile.readHeader(source(file), key, file.length);
    assertThat(h.length()).isEqualTo(length);
    int offset = length == 0 ? 0 : offsetDraw % length;
    int len = length - offset == 0 ? 0 : 1 + lengthDraw % (length - offset);
    byte[] dst = new byte[len + 17];
    PageFile.read(source(file), h, offset, dst, 9, len);
    assertThat(Arrays.copyOfRange(dst, 9, 9 + len))
        .isEqualTo(Arrays.copyOfRange(data, offset, offset + len));
    if (len == 0) {
      return;
    }
    int damaged = damageDraw % length;
    file[h.size + damaged] ^= 1;
    int chunk = PageFile.CHUNK;
    boolean touched =
        damaged / chunk >= offset / chunk && damaged / chunk <= (offset + len - 1) / chunk;
    if (touched) {
      assertThatThrownBy(() -> PageFile.read(source(file), h, offset, dst, 9, len))
          .isInstanceOf(PageFile.CorruptPageException.class);
    } else {
      byte[] again = new byte[len];
      PageFile.read(source(file), h, offset, again, 0, len);
      assertThat(again).isEqualTo(Arrays.copyOfRange(data, offset, offset + len));
    }
    assertThatThrownBy(() -> PageFile.decode(file, key))
        .isInstanceOf(PageFile.CorruptPageException.class);
  }
}
