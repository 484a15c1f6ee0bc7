package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.CommitTesting;
import dev.dtap.commit.store.MultipartStore;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Which way a tap's per-file requests travel, decided when its store is made: dtap's HTTP requests
 * where they reproduce every setting of the tap, S3A's client where a setting needs it, and a clear
 * error, naming the key, where a setting cannot be honoured at all.
 */
class TestS3StoreFactory {
  private static UploadRequests uploads(Map<String, String> s3a, Map<String, String> site)
      throws IOException {
    Configuration conf = OfflineS3a.tap(OfflineS3a.conf("http://127.0.0.1:9", s3a), site);
    try (FileSystem fs = OfflineS3a.dtap(conf)) {
      MultipartStore store = CommitTesting.store(new Path("dtap://lake/"), conf);
      assertThat(store.describe()).isEqualTo("dtap://lake/");
      assertThat(store.toString()).doesNotContain("bucket").doesNotContain(OfflineS3a.SECRET_KEY);
      return ((S3aV2Store) store).uploads();
    }
  }

  @Test
  void httpIsTheDefaultWhereItReproducesEverySetting() throws IOException {
    assertThat(uploads(Map.of(), Map.of())).isInstanceOf(HttpUploads.class);
    assertThat(
            uploads(
                Map.of(
                    "fs.s3a.encryption.algorithm",
                    "SSE-KMS",
                    "fs.s3a.proxy.host",
                    "127.0.0.1",
                    "fs.s3a.proxy.port",
                    "3128"),
                Map.of()))
        .isInstanceOf(HttpUploads.class);
  }

  @Test
  void s3aSendsEveryRequestThroughS3asClient() throws IOException {
    assertThat(uploads(Map.of(), Map.of("fs.dtap.committer.transport", "s3a")))
        .isInstanceOf(ClientUploads.class);
  }

  @Test
  void settingsOnlyS3aCanHonourSendRequestsThroughItsClient() throws IOException {
    assertThat(
            uploads(
                Map.of(
                    "fs.s3a.proxy.host",
                    "127.0.0.1",
                    "fs.s3a.proxy.port",
                    "3128",
                    "fs.s3a.proxy.domain",
                    "CORP"),
                Map.of()))
        .as("NTLM proxy")
        .isInstanceOf(ClientUploads.class);
    Configuration noRegion = OfflineS3a.conf("http://127.0.0.1:9", Map.of());
    noRegion.unset("fs.s3a.endpoint");
    noRegion.unset("fs.s3a.endpoint.region");
    Configuration conf = OfflineS3a.tap(noRegion, Map.of());
    try (FileSystem fs = OfflineS3a.dtap(conf)) {
      assertThat(((S3aV2Store) CommitTesting.store(new Path("dtap://lake/"), conf)).uploads())
          .as("AWS without a region: S3A follows redirects itself")
          .isInstanceOf(ClientUploads.class);
    }
  }

  @Test
  void anAuditorOfTheUsersOwnSeesEveryRequestThroughS3asClient() throws IOException {
    Map<String, String> own =
        Map.of("fs.s3a.audit.service.classname", UsersAuditor.class.getName());
    assertThat(uploads(own, Map.of()))
        .as("the auditor's callbacks run only in S3A's client")
        .isInstanceOf(ClientUploads.class);
    assertThatThrownBy(() -> uploads(own, Map.of("fs.dtap.committer.transport", "http")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("fs.s3a.audit.service.classname");
    assertThat(
            uploads(
                Map.of(
                    "fs.s3a.audit.service.classname",
                    "org.apache.hadoop.fs.s3a.audit.impl.NoopAuditor"),
                Map.of()))
        .as("S3A's own auditors")
        .isInstanceOf(HttpUploads.class);
    assertThat(uploads(Map.of("fs.s3a.audit.enabled", "false"), Map.of()))
        .isInstanceOf(HttpUploads.class);
  }

  /** An auditor of the user's: S3A's logging auditor under another name. */
  public static final class UsersAuditor
      extends org.apache.hadoop.fs.s3a.audit.impl.LoggingAuditor {}

  @Test
  void httpRefusesWhatItCannotHonourNamingTheKey() {
    Map<String, String> ntlm =
        Map.of(
            "fs.s3a.proxy.host",
            "127.0.0.1",
            "fs.s3a.proxy.port",
            "3128",
            "fs.s3a.proxy.workstation",
            "W");
    assertThatThrownBy(() -> uploads(ntlm, Map.of("fs.dtap.committer.transport", "http")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("fs.dtap.committer.transport=http")
        .hasMessageContaining("fs.s3a.proxy.domain")
        .hasMessageContaining("'lake'");
    assertThatThrownBy(() -> uploads(ntlm, Map.of("fs.dtap.committer.signed-payload", "false")))
        .as("unsigned payloads need dtap's requests")
        .isInstanceOf(IOException.class)
        .hasMessageContaining("fs.dtap.committer.signed-payload=false")
        .hasMessageContaining("fs.s3a.proxy.domain");
  }

  @Test
  void aTapWhoseS3aRefusesMultipartUploadsFailsAtInitializeNamingTheKey() {
    for (String transport : List.of("auto", "s3a")) {
      assertThatThrownBy(
              () ->
                  uploads(
                      Map.of("fs.s3a.multipart.uploads.enabled", "false"),
                      Map.of("fs.dtap.committer.transport", transport)))
          .as(transport)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("fs.s3a.multipart.uploads.enabled")
          .hasMessageContaining("'lake'")
          .hasMessageNotContaining("127.0.0.1");
    }
  }

  @Test
  void aProxyWithoutAHostIsRefused() {
    assertThatThrownBy(
            () ->
                uploads(
                    Map.of("fs.s3a.proxy.port", "3128"),
                    Map.of("fs.dtap.committer.transport", "http")))
        .hasMessageContaining("fs.s3a.proxy.port");
  }
}
