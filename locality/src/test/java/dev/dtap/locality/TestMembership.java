package dev.dtap.locality;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TestMembership {
  @Test
  void namesAreKeptAsTheSourceSpellsThemAndDeduplicated() {
    Membership m =
        Membership.of(
            Arrays.asList(
                "nm1.example.com", "NM1.example.com.", " nm2.example.com ", "nm1", "", "10.0.0.7"),
            16,
            "test");
    assertThat(m.hosts()).containsExactly("10.0.0.7", "nm1.example.com", "nm2.example.com");
    assertThat(m.name(1)).isEqualTo("nm1.example.com:9866");
  }

  @Test
  void otherSpellingsNormaliseToMembers() {
    Membership m =
        Membership.of(Arrays.asList("nm1.example.com", "nm2.example.com", "worker3"), 16, "t");
    assertThat(m.normalise("NM1.Example.Com")).isEqualTo("nm1.example.com");
    assertThat(m.normalise("nm1")).isEqualTo("nm1.example.com");
    assertThat(m.normalise("worker3.other.domain")).isEqualTo("worker3");
    assertThat(m.normalise("nm1.example.com.")).isEqualTo("nm1.example.com");
    assertThat(m.normalise("localhost")).isNull();
    assertThat(m.normalise("nm9")).isNull();
  }

  @Test
  void ambiguousShortNamesDoNotNormalise() {
    Membership m = Membership.of(Arrays.asList("nm1.a.example.com", "nm1.b.example.com"), 16, "t");
    assertThat(m.hosts()).hasSize(2);
    assertThat(m.normalise("nm1")).isNull();
  }
}
