package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.LocalTaps;
import dev.dtap.fs.testing.PropertyRuns;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Generated read calls, good and bad (negative, past-EOF and huge positions, negative lengths,
 * buffer offsets outside the buffer), made in the same order on a cached stream and on the same
 * file through the same tap without the cache: every call returns the same count and bytes, or
 * fails with the same exception class, and the stream positions agree. The cache must be invisible
 * to a reader, bad arguments included.
 */
@AddLifecycleHook(PropertyRuns.class)
class TestReadArgumentProperties {
  private static final int LENGTH = 5 * CacheTestSupport.PAGE + 123;
  private static byte[] data;
  private static FileSystem cached;
  private static FileSystem plain;

  /** One read call. */
  static final class Call {
    final int kind;
    final long pos;
    final int len;
    final int off;
    final int bufSize;

    Call(int kind, long pos, int len, int off, int bufSize) {
      this.kind = kind;
      this.pos = pos;
      this.len = len;
      this.off = off;
      this.bufSize = bufSize;
    }

    @Override
    public String toString() {
      String[] kinds = {"pread", "readFully", "seek+read", "read"};
      return kinds[kind]
          + "(pos="
          + pos
          + ", buf="
          + bufSize
          + ", off="
          + off
          + ", len="
          + len
          + ")";
    }
  }

  @BeforeContainer
  static void setUp() throws IOException {
    File root = LocalTaps.newDir("read-args");
    data = CacheTestSupport.randomFile(new File(root, "f"), LENGTH, 11);
    Configuration on = CacheTestSupport.cachedTap("on", root, LocalTaps.newDir("read-args-cache"));
    on.set("fs.dtap.cache.scan.admission", "first-read"); // every page read is cached at once
    on.setBoolean("fs.dtap.impl.disable.cache", true);
    Configuration off = LocalTaps.addTap(LocalTaps.newConf(), "off", root);
    off.setBoolean("fs.dtap.impl.disable.cache", true);
    cached = FileSystem.newInstance(URI.create("dtap://on/"), on);
    plain = FileSystem.newInstance(URI.create("dtap://off/"), off);
  }

  @AfterContainer
  static void tearDown() throws IOException {
    cached.close();
    plain.close();
  }

  @Provide
  Arbitrary<List<Call>> calls() {
    Arbitrary<Long> pos =
        Arbitraries.oneOf(
            // not Long.MAX_VALUE: Hadoop's local streams overflow there (an IOException, or an
            // FSError from the raw one) where S3A and the spec return -1; see the example below
            Arbitraries.of(
                -1L,
                -100L,
                Long.MIN_VALUE,
                0L,
                LENGTH - 1L,
                (long) LENGTH,
                LENGTH + 1L,
                1L << 40,
                (long) CacheTestSupport.PAGE,
                CacheTestSupport.PAGE - 1L),
            Arbitraries.longs().between(0, LENGTH));
    Arbitrary<Integer> bufSize = Arbitraries.of(0, 1, 10, 4096, 3 * CacheTestSupport.PAGE);
    Arbitrary<Integer> len =
        Arbitraries.oneOf(
            Arbitraries.of(-1, 0, 1, Integer.MAX_VALUE),
            Arbitraries.integers().between(0, 3 * CacheTestSupport.PAGE));
    Arbitrary<Integer> off =
        Arbitraries.oneOf(
            Arbitraries.of(-1, 0, 5, Integer.MAX_VALUE), Arbitraries.integers().between(0, 4096));
    Arbitrary<Call> call =
        Combinators.combine(Arbitraries.integers().between(0, 3), pos, len, off, bufSize)
            .as(Call::new);
    return call.list().ofMinSize(1).ofMaxSize(8);
  }

  @Property
  void theCacheIsInvisibleToEveryReadCall(@ForAll("calls") List<Call> calls) throws Exception {
    try (FSDataInputStream a = cached.open(new Path("dtap://on/f"));
        FSDataInputStream b = plain.open(new Path("dtap://off/f"))) {
      for (Call c : calls) {
        Outcome withCache = run(a, c);
        Outcome without = run(b, c);
        String what = c + " in " + calls;
        assertThat(withCache.thrown).as("exception of " + what).isEqualTo(without.thrown);
        if (withCache.thrown != null) {
          continue;
        }
        if (c.kind == 1) {
          assertThat(withCache.buf).as(what).isEqualTo(without.buf);
        } else {
          // a single read may return fewer bytes than asked, and the two streams may cut at
          // different places: both reach EOF together, return nothing only when asked for nothing,
          // and every byte they return is the file's
          assertThat(withCache.n < 0).as("EOF of " + what).isEqualTo(without.n < 0);
          assertThat(withCache.n == 0).as("empty read of " + what).isEqualTo(without.n == 0);
          withCache.assertFileBytes(c, what);
          without.assertFileBytes(c, what);
        }
        if (c.kind <= 1) {
          assertThat(a.getPos())
              .as("a positioned read moves nothing: " + what)
              .isEqualTo(withCache.posBefore);
        }
      }
    }
  }

  @Example
  void positionedReadsAtTheExtremesFollowTheSpec() throws Exception {
    try (FSDataInputStream a = cached.open(new Path("dtap://on/f"))) {
      assertThat(a.read(Long.MAX_VALUE, new byte[1], 0, 1)).isEqualTo(-1);
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> a.read(Long.MIN_VALUE, new byte[1], 0, 1))
          .isInstanceOf(java.io.EOFException.class);
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> a.readFully(Long.MAX_VALUE - 1, new byte[8]))
          .isInstanceOf(java.io.EOFException.class);
    }
  }

  /** What one call did. */
  private static final class Outcome {
    Class<?> thrown;
    int n;
    byte[] buf;
    long posBefore;
    long readFrom;

    void assertFileBytes(Call c, String what) {
      if (n <= 0) {
        return;
      }
      assertThat(Arrays.copyOfRange(buf, c.off, c.off + n))
          .as("bytes of " + what)
          .isEqualTo(Arrays.copyOfRange(data, (int) readFrom, (int) readFrom + n));
    }
  }

  private static Outcome run(FSDataInputStream in, Call c) throws IOException {
    Outcome o = new Outcome();
    o.buf = new byte[c.bufSize];
    o.posBefore = in.getPos();
    try {
      switch (c.kind) {
        case 0:
          o.readFrom = c.pos;
          o.n = in.read(c.pos, o.buf, c.off, c.len);
          break;
        case 1:
          o.readFrom = c.pos;
          in.readFully(c.pos, o.buf, c.off, c.len);
          o.n = c.len;
          break;
        case 2:
          in.seek(c.pos);
          o.readFrom = c.pos;
          o.n = in.read(o.buf, c.off, c.len);
          break;
        default:
          o.readFrom = in.getPos();
          o.n = in.read(o.buf, c.off, c.len);
      }
    } catch (IOException | RuntimeException e) {
      o.thrown = e.getClass();
    }
    return o;
  }
}
