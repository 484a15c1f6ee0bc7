package dev.dtap.commit.record;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class TestMagicPaths {
  @Test
  void aFileUnderBaseGoesToTheDestinationWithItsRelativePath() {
    MagicPaths.MagicFile f =
        MagicPaths.parse(
                new Path("dtap://t/out/__magic_job-u1/attempt_1_0001_m_000000_0/__base/a/b/part-0"))
            .get();
    assertThat(f.dest).isEqualTo(new Path("dtap://t/out"));
    assertThat(f.uuid).isEqualTo("u1");
    assertThat(f.attempt).isEqualTo("attempt_1_0001_m_000000_0");
    assertThat(f.relative).isEqualTo("a/b/part-0");
    assertThat(f.finalPath()).isEqualTo(new Path("dtap://t/out/a/b/part-0"));
  }

  @Test
  void theLastBaseWinsAndWithoutBaseWhatFollowsTheAttemptIsKept() {
    assertThat(
            MagicPaths.parse(new Path("dtap://t/o/__magic_job-u/a0/x/__base/y/__base/z"))
                .get()
                .relative)
        .isEqualTo("z");
    assertThat(MagicPaths.parse(new Path("dtap://t/o/__magic_job-u/a0/x/y")).get().relative)
        .isEqualTo("x/y");
  }

  @Test
  void theMagicDirectoriesThemselvesAreNotFiles() {
    assertThat(MagicPaths.parse(new Path("dtap://t/o/__magic_job-u"))).isEmpty();
    assertThat(MagicPaths.parse(new Path("dtap://t/o/__magic_job-u/a0"))).isEmpty();
    assertThat(MagicPaths.parse(new Path("dtap://t/o/__magic_job-u/a0/__base"))).isEmpty();
    assertThat(MagicPaths.isMagic(new Path("dtap://t/o/__magic_job-u/a0"))).isTrue();
    assertThat(MagicPaths.isMagic(new Path("dtap://t/o/__magic_job-"))).isFalse();
    assertThat(MagicPaths.isMagic(new Path("dtap://t/o/x__magic_job-u/a"))).isFalse();
  }

  @Test
  void aDestinationAtTheTapRoot() {
    MagicPaths.MagicFile f = MagicPaths.parse(new Path("dtap://t/__magic_job-u/a0/__base/f")).get();
    assertThat(f.finalPath()).isEqualTo(new Path("dtap://t/f"));
  }
}
