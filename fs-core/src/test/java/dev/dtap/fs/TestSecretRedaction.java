package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.fs.testing.Canary;
import dev.dtap.fs.testing.LocalTaps;
import dev.dtap.fs.testing.LogCapture;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.alias.CredentialProvider;
import org.apache.hadoop.security.alias.CredentialProviderFactory;
import org.junit.jupiter.api.Test;

/**
 * Secrets configured for a tap, directly or through a Hadoop credential provider, never appear in
 * logs, exception messages, stack traces or toString output, across a session of ordinary use and
 * failures. (The build also scans every test report for {@link Canary#MARKER}.)
 */
class TestSecretRedaction {
  @Test
  void noSecretAppearsAnywhere() throws Exception {
    String direct = Canary.secret("direct");
    String provided = Canary.secret("provider");
    File root = LocalTaps.newDir("secrets");
    File store = new File(LocalTaps.newDir("jceks"), "creds.jceks");

    Configuration providerConf = new Configuration();
    String providerPath = "jceks://file" + store.getAbsolutePath();
    providerConf.set(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, providerPath);
    CredentialProvider provider = CredentialProviderFactory.getProviders(providerConf).get(0);
    provider.createCredentialEntry("fs.s3a.secret.key", provided.toCharArray());
    provider.flush();

    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "sec", root);
    conf.set("fs.dtap.tap.sec.conf.fs.s3a.access.key", Canary.secret("access"));
    conf.set("fs.dtap.tap.sec.conf.fs.s3a.session.token", direct);
    conf.set(
        "fs.dtap.tap.sec.conf." + CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, providerPath);
    conf.set("fs.dtap.tap.ro.uri", root.toURI().toString());
    conf.set("fs.dtap.tap.ro.readonly", "true");
    conf.set("fs.dtap.tap.ro.conf.fs.s3a.secret.key", direct);

    List<String> seen = new ArrayList<>();
    try (LogCapture logs = LogCapture.start()) {
      try (DataTapFileSystem fs = (DataTapFileSystem) LocalTaps.open(conf, "sec");
          FileSystem ro = LocalTaps.open(conf, "ro")) {
        // the backend, and only the backend, can read the secrets
        Configuration backendConf = fs.tap().backendConfiguration();
        assertThat(new String(backendConf.getPassword("fs.s3a.secret.key"))).isEqualTo(provided);
        assertThat(backendConf.get("fs.s3a.session.token")).isEqualTo(direct);

        fs.mkdirs(LocalTaps.path("sec", "/d"));
        fs.create(LocalTaps.path("sec", "/d/f")).close();
        fs.listStatus(LocalTaps.path("sec", "/d"));
        seen.add(fs.toString());
        seen.add(fs.tap().toString());
        seen.add(fs.tap().config().toString());
        seen.add(fs.getIOStatistics().toString());
        seen.add(String.valueOf(fs.getFileStatus(LocalTaps.path("sec", "/d/f"))));
        collect(seen, () -> fs.getFileStatus(LocalTaps.path("sec", "/missing")));
        collect(seen, () -> fs.open(new Path("dtap://sec/%2E%2E/x".replace("%2E", "."))));
        collect(seen, () -> ro.delete(LocalTaps.path("ro", "/d"), true));
        collect(seen, () -> fs.rename(LocalTaps.path("sec", "/d"), LocalTaps.path("ro", "/e")));
      }
      Configuration bad = new Configuration(conf);
      bad.set("fs.dtap.tap.bad.uri", "s3a://AKIA:" + direct + "@bucket/x");
      collect(seen, () -> LocalTaps.open(bad, "sec"));
      Configuration badKey = new Configuration(conf);
      badKey.set("fs.dtap.tap.sec.secret", direct);
      collect(seen, () -> LocalTaps.open(badKey, "sec"));
      collect(seen, () -> LocalTaps.open(conf, "unknown"));
      seen.add(logs.text());
    }
    assertThat(seen).hasSizeGreaterThan(10);
    for (String s : seen) {
      assertThat(s).doesNotContain(Canary.MARKER);
    }
  }

  private interface Action {
    void run() throws Exception;
  }

  private static void collect(List<String> seen, Action a) {
    try {
      a.run();
      seen.add("no failure");
    } catch (Exception e) {
      StringWriter sw = new StringWriter();
      e.printStackTrace(new PrintWriter(sw));
      seen.add(sw.toString());
    }
  }
}
