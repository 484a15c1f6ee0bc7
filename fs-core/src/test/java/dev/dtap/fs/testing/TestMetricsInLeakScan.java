package dev.dtap.fs.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;

/** What a dtap filesystem's metrics show in JMX reaches the file the secret scan reads. */
class TestMetricsInLeakScan {
  @TempDir Path dir;
  private String previous;

  @BeforeEach
  void logsInTheTempDir() {
    previous = System.setProperty("dtap.it.logs", dir.toString());
  }

  @AfterEach
  void restore() {
    if (previous == null) {
      System.clearProperty("dtap.it.logs");
    } else {
      System.setProperty("dtap.it.logs", previous);
    }
  }

  @Test
  void aTapsMetricsSourceIsWrittenWithItsTags() throws Exception {
    File root = LocalTaps.newDir("leak-scan");
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "scanned", root);
    ExtensionContext context = mock(ExtensionContext.class);
    when(context.getRequiredTestClass()).thenAnswer(i -> TestMetricsInLeakScan.class);
    try (FileSystem fs = FileSystem.newInstance(new java.net.URI("dtap://scanned/"), conf)) {
      fs.exists(new org.apache.hadoop.fs.Path("dtap://scanned/x"));
      new MetricsInLeakScan().afterTestExecution(context);
    }
    File written =
        new File(dir.toFile(), "metrics-" + TestMetricsInLeakScan.class.getName() + ".txt");
    String text = new String(Files.readAllBytes(written.toPath()), StandardCharsets.UTF_8);
    assertThat(text)
        .as("the tap's source, with its tag, as JMX and every metrics2 sink see it")
        .containsPattern("DtapFileSystem-scanned-[0-9]+[^ ]* tag.tap=scanned");
  }
}
