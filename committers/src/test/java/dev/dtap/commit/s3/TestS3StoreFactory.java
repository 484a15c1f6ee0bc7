package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.dtap.commit.store.MultipartStore;
import dev.dtap.fs.config.TapConfig;
import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** How fs.dtap.committer.part.transport shapes a tap's S3 client. */
class TestS3StoreFactory {
  private static TapContext tap(Configuration site) {
    TapConfig config = mock(TapConfig.class);
    when(config.name()).thenReturn("lake");
    when(config.root()).thenReturn(URI.create("s3a://bucket/warehouse"));
    Configuration backend = new Configuration(false);
    backend.set("fs.s3a.endpoint", "http://127.0.0.1:9");
    backend.set("fs.s3a.access.key", "AKIDEXAMPLE");
    backend.set("fs.s3a.secret.key", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
    TapContext tap = mock(TapContext.class);
    when(tap.config()).thenReturn(config);
    when(tap.siteConfiguration()).thenReturn(site);
    when(tap.backendConfiguration()).thenReturn(backend);
    return tap;
  }

  private static UploadRequests uploadsOf(Configuration site) throws IOException {
    try (MultipartStore store = new S3StoreFactory().create(tap(site)).orElseThrow()) {
      return ((S3MultipartStore) store).uploads();
    }
  }

  @Test
  void directIsTheDefaultOverHttpAndSdkLeavesEveryRequestToTheSdk() throws IOException {
    assertThat(uploadsOf(new Configuration(false))).isInstanceOf(DirectUploads.class);
    Configuration sdk = new Configuration(false);
    sdk.set("fs.dtap.committer.part.transport", "sdk");
    assertThat(uploadsOf(sdk)).isInstanceOf(SdkUploads.class);
  }

  @Test
  void httpsEndpointsStayWithTheSdk() throws IOException {
    TapContext tap = tap(new Configuration(false));
    tap.backendConfiguration().set("fs.s3a.endpoint", "https://127.0.0.1:9");
    try (MultipartStore store = new S3StoreFactory().create(tap).orElseThrow()) {
      assertThat(((S3MultipartStore) store).uploads()).isInstanceOf(SdkUploads.class);
    }
  }

  @Test
  void everyValueMakesAStore() throws IOException {
    for (String value : new String[] {"direct", "sdk", "DIRECT"}) {
      Configuration site = new Configuration(false);
      site.set("fs.dtap.committer.part.transport", value);
      try (MultipartStore store = new S3StoreFactory().create(tap(site)).orElseThrow()) {
        assertThat(store.describe()).isEqualTo("s3a://bucket");
      }
    }
  }

  @Test
  void anUnknownTransportIsRefusedNamingTheKey() {
    Configuration site = new Configuration(false);
    site.set("fs.dtap.committer.part.transport", "fast");
    assertThatThrownBy(() -> new S3StoreFactory().create(tap(site)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("fs.dtap.committer.part.transport")
        .hasMessageContaining("fast")
        .hasMessageContaining("direct")
        .hasMessageContaining("sdk");
  }
}
