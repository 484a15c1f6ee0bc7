package dev.dtap.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A bar redrawn in place on a terminal; a line per tenth of the work in a log. */
class TestProgress {
  @Test
  void onATerminalOneBarIsRedrawnInPlace() throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    Progress p = new Progress(new PrintStream(b, true, "UTF-8"), true, 4 << 20);
    for (int i = 0; i < 4; i++) {
      p.advance(1 << 20, "part-" + i);
    }
    p.finish();
    String out = b.toString(StandardCharsets.UTF_8);
    assertThat(out.split("\r", -1)).hasSize(5);
    assertThat(out)
        .contains("[#######")
        .contains(" 25% ")
        .contains("100% 4.0 MiB of 4.0 MiB  part-3");
    assertThat(out.indexOf('\n')).as("one line, ended at finish").isEqualTo(out.length() - 1);
  }

  @Test
  void inALogEachTenthIsOneLine() throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    Progress p = new Progress(new PrintStream(b, true, "UTF-8"), false, 100);
    for (int i = 0; i < 100; i++) {
      p.advance(1, "f");
    }
    p.finish();
    String[] lines = b.toString(StandardCharsets.UTF_8).split("\n");
    assertThat(lines).hasSize(11);
    assertThat(lines[0]).isEqualTo("1% 1 B of 100 B");
    assertThat(lines[1]).isEqualTo("10% 10 B of 100 B");
    assertThat(lines[10]).isEqualTo("100% 100 B of 100 B");
    assertThat(String.join("", lines)).doesNotContain("\r");
  }
}
