package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestBackendNames {
  private static final List<String> MESSAGES =
      Arrays.asList(
          "getFileStatus on s3a://bucket/warehouse/t/part-0: not found",
          "s3a://bucket/other/k: 403",
          "Unable to execute HTTP request: Connect to minio.internal:9000 failed",
          "Call From vm/10.0.0.7 to nn.example.com:8020 failed on connection exception",
          "No such key: warehouse/t",
          "Unable to read data from the stream",
          "dtap://lake/t/part-0: Connection reset",
          "");

  @Test
  void showsAgreesWithTranslateOnEveryKindOfBackend() {
    List<BackendNames> all =
        Arrays.asList(
            new BackendNames(
                "lake",
                URI.create("s3a://bucket/warehouse"),
                Collections.singletonList("minio.internal:9000")),
            new BackendNames(
                "hist", URI.create("hdfs://nn.example.com:8020/data"), Collections.emptyList()),
            new BackendNames("loc", URI.create("file:/mnt/nfs/x"), Collections.emptyList()),
            new BackendNames("all", URI.create("hdfs://nn:8020/"), Collections.emptyList()));
    int shown = 0;
    for (BackendNames names : all) {
      for (String message : MESSAGES) {
        boolean rewritten = names.translate(message) != message;
        assertThat(names.shows(message)).as("shows(%s)", message).isEqualTo(rewritten);
        shown += rewritten ? 1 : 0;
      }
      assertThat(names.shows(null)).isFalse();
    }
    assertThat(shown).as("messages some backend shows").isGreaterThanOrEqualTo(4);
  }
}
