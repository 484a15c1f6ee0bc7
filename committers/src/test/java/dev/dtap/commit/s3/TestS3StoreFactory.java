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
import software.amazon.awssdk.http.SdkHttpClient;

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

  @Test
  void directIsTheDefaultAndSdkLeavesPartsToTheSdksClient() {
    SdkHttpClient direct = new S3StoreFactory.TransportBuilder(4, S3StoreFactory.PartTransport.DIRECT).build();
    SdkHttpClient sdk = new S3StoreFactory.TransportBuilder(4, S3StoreFactory.PartTransport.SDK).build();
    try {
      assertThat(direct).isInstanceOf(DirectPartTransport.class);
      assertThat(sdk).isNotInstanceOf(DirectPartTransport.class);
    } finally {
      direct.close();
      sdk.close();
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
