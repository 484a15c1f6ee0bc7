package dev.dtap.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.testing.ForwardingStore;
import dev.dtap.commit.testing.LocalMultipartStore;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TestConditionalPutProbe {
  private final LocalMultipartStore local;

  TestConditionalPutProbe() throws IOException {
    local = new LocalMultipartStore(Files.createTempDirectory("probe"));
  }

  @Test
  void aStoreThatHonoursConditionalWritesPasses() throws IOException {
    ConditionalPutProbe.check(local, "job/probe", "lake");
    assertThat(local.get("job/probe")).as("the probe is deleted").isEmpty();
  }

  @Test
  void aFirstWriteWhoseAnswerWasLostAndWasSentAgainPasses() throws IOException {
    AtomicInteger calls = new AtomicInteger();
    MultipartStore lostAnswer =
        new ForwardingStore(local) {
          @Override
          public boolean putIfAbsent(String key, byte[] data) throws IOException {
            boolean written = super.putIfAbsent(key, data);
            // the first write landed, its answer was lost, and the client's retry met it: 412
            return calls.incrementAndGet() == 1 ? super.putIfAbsent(key, data) : written;
          }
        };
    ConditionalPutProbe.check(lostAnswer, "job/probe", "lake");
    assertThat(calls).hasValue(2);
  }

  @Test
  void aStoreThatIgnoresThemIsRefusedNamingTheKey() {
    MultipartStore ignoring =
        new ForwardingStore(local) {
          @Override
          public boolean putIfAbsent(String key, byte[] data) throws IOException {
            put(key, data);
            return true;
          }
        };
    assertThatThrownBy(() -> ConditionalPutProbe.check(ignoring, "job/probe", "lake"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("tap 'lake'")
        .hasMessageContaining(CommitterKeys.CONDITIONAL_PUT.name());
  }

  @Test
  void aStoreThatRefusesANewObjectIsReportedAsSuchAndTheSetupMayBeRetried() {
    MultipartStore refusing =
        new ForwardingStore(local) {
          @Override
          public boolean putIfAbsent(String key, byte[] data) {
            return false; // 409: another conditional write in progress, as the store says
          }
        };
    assertThatThrownBy(() -> ConditionalPutProbe.check(refusing, "job/probe", "lake"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("tap 'lake'")
        .hasMessageContaining("run the job again")
        .hasMessageContaining(CommitterKeys.CONDITIONAL_PUT.name());
  }

  @Test
  void aFailedDeleteOfTheProbeNeitherFailsAHealthyStoreNorHidesTheRealError() throws Exception {
    MultipartStore undeletable =
        new ForwardingStore(local) {
          @Override
          public void delete(java.util.Collection<String> keys) throws IOException {
            throw new IOException("delete refused");
          }
        };
    ConditionalPutProbe.check(undeletable, "job/probe", "lake");

    IOException denied = new IOException("access denied");
    MultipartStore failing =
        new ForwardingStore(undeletable) {
          @Override
          public boolean putIfAbsent(String key, byte[] data) throws IOException {
            throw denied;
          }
        };
    assertThatThrownBy(() -> ConditionalPutProbe.check(failing, "job/probe2", "lake"))
        .isSameAs(denied)
        .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
  }
}
