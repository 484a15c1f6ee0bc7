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
 * A tap's store on Hadoop 3.4 and later is S3A's own client and request factory, whatever else the
 * tap sets (proxies, auditors, encryption, a region or none); a setting the committers cannot work
 * with fails when the store is made, naming the key and never the endpoint or a secret.
 */
class TestS3StoreFactory {
  private static MultipartStore store(Map<String, String> s3a) throws IOException {
    Configuration conf = OfflineS3a.tap(OfflineS3a.conf("http://127.0.0.1:9", s3a), Map.of());
    try (FileSystem fs = OfflineS3a.dtap(conf)) {
      MultipartStore store = CommitTesting.store(new Path("dtap://lake/"), conf);
      assertThat(store.describe()).isEqualTo("dtap://lake/");
      assertThat(store.toString()).doesNotContain("bucket").doesNotContain(OfflineS3a.SECRET_KEY);
      store.close();
      return store;
    }
  }

  @Test
  void everyTapGetsS3asClient() throws IOException {
    List<Map<String, String>> settings =
        List.of(
            Map.of(),
            Map.of("fs.s3a.encryption.algorithm", "SSE-KMS"),
            Map.of(
                "fs.s3a.proxy.host",
                "127.0.0.1",
                "fs.s3a.proxy.port",
                "3128",
                "fs.s3a.proxy.domain",
                "CORP"),
            Map.of("fs.s3a.audit.service.classname", UsersAuditor.class.getName()),
            Map.of("fs.s3a.audit.enabled", "false"));
    for (Map<String, String> s : settings) {
      assertThat(store(s)).as(s.toString()).isInstanceOf(S3aV2Store.class);
    }
    Configuration noRegion = OfflineS3a.conf("http://127.0.0.1:9", Map.of());
    noRegion.unset("fs.s3a.endpoint");
    noRegion.unset("fs.s3a.endpoint.region");
    Configuration conf = OfflineS3a.tap(noRegion, Map.of());
    try (FileSystem fs = OfflineS3a.dtap(conf);
        MultipartStore store = CommitTesting.store(new Path("dtap://lake/"), conf)) {
      assertThat(store).as("AWS without a region").isInstanceOf(S3aV2Store.class);
    }
  }

  /** An auditor of the user's: S3A's logging auditor under another name. */
  public static final class UsersAuditor
      extends org.apache.hadoop.fs.s3a.audit.impl.LoggingAuditor {}

  @Test
  void aTapWhoseS3aRefusesMultipartUploadsFailsAtInitializeNamingTheKey() {
    assertThatThrownBy(() -> store(Map.of("fs.s3a.multipart.uploads.enabled", "false")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("fs.s3a.multipart.uploads.enabled")
        .hasMessageContaining("'lake'")
        .hasMessageNotContaining("127.0.0.1");
  }
}
