package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Path translation and containment over generated paths: unicode, spaces, {@code % + # :}, deep
 * nesting, dot segments (plain and percent-encoded) and repeated slashes. Each case is checked
 * against an independent model of the expected result.
 */
class TestPathMapper {
  private static final String[] ROOTS = {
    "hdfs://nn:8020/data",
    "s3a://bucket/warehouse/tables",
    "s3a://bucket",
    "file:///mnt/nfs/x",
    "hdfs://nn:8020/dir with space/ünïcødé",
    "s3a://bucket/a%25b+c",
  };

  private static final String[] ATOMS = {
    "a", "b", "data", "x1", "é", "中文", "😀", " ", "%", "+", "#", ":", "@", "&", "=", ";", ",", "~",
    "!", "$", "'", "(", ")", "[", "]", "-", "_", ".", "..", "%2E", "%2e%2E", "%25", "a b", "...",
    ".hidden", "..x", "x..", "%20", "?", "*", "{", "}"
  };

  private static final int CASES = 12_000;

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3, 4, 5})
  void generatedPathsRoundTripAndStayContained(int rootIndex) throws Exception {
    URI root = new Path(ROOTS[rootIndex]).toUri();
    PathMapper mapper = new PathMapper("tap", root);
    String rootPath = root.getPath().isEmpty() ? "" : root.getPath();
    Random random = new Random(20261122L + rootIndex);
    int escapes = 0;
    int contained = 0;
    for (int i = 0; i < CASES; i++) {
      List<String> segments = randomSegments(random);
      String decoded = "/" + String.join(random.nextInt(10) == 0 ? "//" : "/", segments);
      Path dtap = spell(decoded, random.nextInt(3));
      String expected = model(dtap.toUri().getPath());
      if (expected == null) {
        escapes++;
        assertThatThrownBy(() -> mapper.toBackend(dtap), "case %d: %s", i, dtap)
            .isInstanceOf(AccessControlException.class)
            .hasMessageContaining("tap 'tap'")
            .hasMessageNotContaining(
                root.getAuthority() == null ? "/mnt/nfs" : root.getAuthority());
        continue;
      }
      contained++;
      Path backend = mapper.toBackend(dtap);
      String backendPath = backend.toUri().getPath();
      assertThat(backendPath)
          .as("case %d: %s -> %s", i, dtap, backend)
          .isEqualTo((rootPath + expected).isEmpty() ? "/" : rootPath + expected);
      assertThat(backend.toUri().getScheme()).isEqualTo(root.getScheme());
      assertThat(backend.toUri().getAuthority()).isEqualTo(root.getAuthority());
      Path back = mapper.toDtap(backend);
      assertThat(back.toUri().getScheme()).isEqualTo("dtap");
      assertThat(back.toUri().getAuthority()).isEqualTo("tap");
      assertThat(back.toUri().getPath())
          .as("round trip of case %d: %s", i, dtap)
          .isEqualTo(expected.isEmpty() ? "/" : expected);
      // the string form must parse back to the same path, as Hadoop code does with toString()
      assertThat(new Path(back.toString())).isEqualTo(back);
    }
    assertThat(contained + escapes).isEqualTo(CASES);
    assertThat(escapes).as("the generator must produce escapes too").isGreaterThan(100);
    assertThat(contained).isGreaterThan(CASES / 2);
  }

  @Test
  void siblingWithCommonPrefixIsOutside() throws Exception {
    PathMapper mapper = new PathMapper("tap", new URI("hdfs://nn:8020/data"));
    assertThat(mapper.relativeToRoot("/database/x")).isNull();
    assertThat(mapper.relativeToRoot("/data")).isEmpty();
    assertThat(mapper.relativeToRoot("/data/")).isEmpty();
    assertThat(mapper.relativeToRoot("/data/x")).isEqualTo("/x");
    assertThatThrownBy(() -> mapper.toDtap(new Path("hdfs://nn:8020/database/x")))
        .isInstanceOf(AccessControlException.class)
        .hasMessageNotContaining("database");
  }

  @Test
  void encodedDotsCannotClimb() throws Exception {
    PathMapper mapper = new PathMapper("tap", new URI("s3a://bucket/warehouse"));
    for (String raw :
        new String[] {
          "dtap://tap/%2E%2E/secret",
          "dtap://tap/a/%2e%2e/%2e%2e/secret",
          "dtap://tap/..%2Fsecret",
          "dtap://tap/a/..%2F..%2Fsecret",
        }) {
      Path p = new Path(URI.create(raw));
      assertThatThrownBy(() -> mapper.toBackend(p), raw).isInstanceOf(AccessControlException.class);
    }
    // climbing and coming back down inside the tap is fine
    Path inside = new Path(URI.create("dtap://tap/a/%2E%2E/b"));
    assertThat(mapper.toBackend(inside).toUri().getPath()).isEqualTo("/warehouse/b");
  }

  @Test
  void literalPercentNamesStayLiteral() throws Exception {
    PathMapper mapper = new PathMapper("tap", new URI("s3a://bucket/w"));
    // Path(String) does not decode: "%2E%2E" is a file name, not "..".
    Path p = new Path("dtap://tap/%2E%2E/x");
    assertThat(mapper.toBackend(p).toUri().getPath()).isEqualTo("/w/%2E%2E/x");
  }

  /** The expected decoded path below the root ("" for the root), or null if it escapes. */
  private static String model(String decoded) {
    Deque<String> stack = new ArrayDeque<>();
    for (String s : decoded.split("/", -1)) {
      if (s.isEmpty() || s.equals(".")) {
        continue;
      }
      if (s.equals("..")) {
        if (stack.isEmpty()) {
          return null;
        }
        stack.removeLast();
      } else {
        stack.addLast(s);
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String s : stack) {
      sb.append('/').append(s);
    }
    return sb.toString();
  }

  private static List<String> randomSegments(Random random) {
    int depth = 1 + random.nextInt(random.nextInt(8) == 0 ? 40 : 6);
    List<String> out = new ArrayList<>(depth);
    for (int i = 0; i < depth; i++) {
      int parts = 1 + random.nextInt(3);
      StringBuilder sb = new StringBuilder();
      for (int j = 0; j < parts; j++) {
        sb.append(ATOMS[random.nextInt(ATOMS.length)]);
        if (sb.toString().equals(".") || sb.toString().equals("..")) {
          break; // keep real dot segments whole
        }
      }
      out.add(sb.toString());
    }
    return out;
  }

  /** Three spellings of the same intent: Path(String), Path(URI) decoded, Path(URI) raw. */
  private static Path spell(String decoded, int how) throws URISyntaxException {
    switch (how) {
      case 0:
        return new Path("dtap://tap" + decoded);
      case 1:
        return new Path(new URI("dtap", "tap", decoded, null, null));
      default:
        return new Path(URI.create("dtap://tap" + encodeDots(decoded)));
    }
  }

  /** Percent-encodes every character outside a safe set, dots included, as a raw URI path. */
  private static String encodeDots(String decoded) {
    StringBuilder sb = new StringBuilder();
    for (byte b : decoded.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c == '/' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
        sb.append((char) c);
      } else {
        sb.append('%').append(String.format("%02X", c));
      }
    }
    return sb.toString();
  }
}
