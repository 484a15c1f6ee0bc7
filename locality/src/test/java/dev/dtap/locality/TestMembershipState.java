package dev.dtap.locality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The saved membership is used only when it is this source's, the user's own, and young enough. */
class TestMembershipState {
  private static final long MINUTE = 60_000;

  @Test
  void aSavedMembershipIsReadBackWithItsTime() throws Exception {
    MembershipState state = new MembershipState(dir(), "YARN|rm-a:8032");
    state.save(Arrays.asList("nm-1", "nm-2"));
    long now = System.currentTimeMillis();
    MembershipState.Saved saved = state.load(now, MINUTE);
    assertThat(saved.hosts()).containsExactlyInAnyOrder("nm-1", "nm-2");
    assertThat(saved.savedAtMillis()).isBetween(now - MINUTE, now);
    assertThat(
            PosixFilePermissions.toString(Files.getPosixFilePermissions(state.file().getParent())))
        .isEqualTo("rwx------");
  }

  @Test
  void anotherSourceOrAnOldAnswerIsNotUsed() throws Exception {
    Path dir = dir();
    MembershipState a = new MembershipState(dir, "YARN|rm-a:8032");
    a.save(Arrays.asList("nm-1"));
    // a file of another key copied over this one's name: its header names the other source
    MembershipState b = new MembershipState(dir, "YARN|rm-b:8032");
    Files.copy(a.file(), b.file());
    assertThat(b.load(System.currentTimeMillis(), MINUTE)).isNull();
    Files.setLastModifiedTime(
        a.file(), FileTime.fromMillis(System.currentTimeMillis() - 2 * MINUTE));
    assertThat(a.load(System.currentTimeMillis(), MINUTE)).isNull();
    assertThat(a.load(System.currentTimeMillis(), 3 * MINUTE)).isNotNull();
  }

  @Test
  void aFileOthersCanWriteOrALinkIsNotUsed() throws Exception {
    Path dir = dir();
    MembershipState state = new MembershipState(dir, "YARN|rm:8032");
    state.save(Arrays.asList("nm-1"));
    Files.setPosixFilePermissions(state.file(), PosixFilePermissions.fromString("rw-rw-rw-"));
    assertThat(state.load(System.currentTimeMillis(), MINUTE)).isNull();

    Path elsewhere = Files.createTempFile(dir.getParent(), "planted", "");
    Files.write(
        elsewhere,
        ("# dtap locality membership of YARN|rm:8032\nevil\n").getBytes(StandardCharsets.UTF_8));
    Files.delete(state.file());
    Files.createSymbolicLink(state.file(), elsewhere);
    assertThat(state.load(System.currentTimeMillis(), MINUTE)).isNull();
  }

  @Test
  void aMissingOrUnwritableDirectoryOnlyCostsTheSaving() throws Exception {
    File plainFile = new File(LocalTaps.newDir("membership-state"), "not-a-dir");
    assertThat(plainFile.createNewFile()).isTrue();
    MembershipState state = new MembershipState(plainFile.toPath().resolve("sub"), "YARN|rm:1");
    state.save(Arrays.asList("nm-1"));
    assertThat(state.load(System.currentTimeMillis(), MINUTE)).isNull();
  }

  private static Path dir() throws java.io.IOException {
    return LocalTaps.newDir("membership-state").toPath().resolve("state");
  }
}
