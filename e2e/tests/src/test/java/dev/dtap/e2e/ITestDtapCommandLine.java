package dev.dtap.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dtap.it.fixtures.MinioFixture;
import dev.dtap.it.fixtures.RepoRoot;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The {@code dtap} command as operators run it, {@code hadoop jar dtap-hadoop-VERSION.jar
 * <command>}: Hadoop's RunJar in a process whose class path is Hadoop's jars, a configuration
 * directory and nothing of dtap but the shaded jar. Settings come from core-site.xml only.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ITestDtapCommandLine {
  private File confDir;
  private String bucket;

  @BeforeAll
  void site() throws IOException {
    MinioFixture minio = MinioFixture.get();
    bucket = minio.createBucket("e2e-tool");
    minio
        .client()
        .putObject(
            b -> b.bucket(bucket).key("data/part-0"),
            RequestBody.fromBytes(new byte[(1 << 20) + 7]));
    File dir = new File(RepoRoot.data(), "e2e-tool-" + System.nanoTime());
    confDir = new File(dir, "conf");
    Files.createDirectories(confDir.toPath());
    Configuration site = new Configuration(false);
    site.set("fs.dtap.tap.lake.uri", "s3a://" + bucket);
    site.set("fs.dtap.tap.lake.cache", "true");
    site.set("fs.dtap.cache.dirs", new File(dir, "cache").getAbsolutePath());
    site.set("fs.dtap.tap.locked.uri", "s3a://" + bucket);
    for (Map.Entry<String, String> e :
        minio.s3aSettings(minio.accessKey(), minio.secretKey()).entrySet()) {
      site.set("fs.dtap.tap.lake.conf." + e.getKey(), e.getValue());
      site.set("fs.dtap.tap.locked.conf." + e.getKey(), e.getValue());
    }
    site.set("fs.dtap.tap.locked.conf.fs.s3a.secret.key", "not-the-secret-e2e");
    try (OutputStream out = Files.newOutputStream(new File(confDir, "core-site.xml").toPath())) {
      site.writeXml(out);
    }
  }

  private ChildJvm.Result dtap(String... args) throws IOException {
    String[] runJar = new String[args.length + 1];
    runJar[0] = HadoopInstall.dtapJar().getAbsolutePath();
    System.arraycopy(args, 0, runJar, 1, args.length);
    return new ChildJvm("dtap-" + args[0])
        .classpath(HadoopInstall.classpath(confDir))
        .run("org.apache.hadoop.util.RunJar", 5, runJar);
  }

  @Test
  @Tag("smoke")
  void doctorFindsTheBrokenTapAndPassesTheGoodOne() throws IOException {
    ChildJvm.Result all = dtap("doctor", "--json");
    assertThat(all.exit).as(all.tail()).isEqualTo(1);
    JsonNode checks = new ObjectMapper().readTree(all.stdout).get("checks");
    String lake = "";
    String locked = "";
    for (JsonNode r : checks) {
      String line = r.get("check").asText() + "=" + r.get("status").asText() + " ";
      if (r.get("tap").asText().equals("lake")) {
        lake += line;
      } else if (r.get("tap").asText().equals("locked")) {
        locked += line + r.get("detail").asText() + " ";
      }
    }
    assertThat(lake)
        .contains("classpath=OK", "backend=OK", "list root=OK", "cache=OK")
        .doesNotContain("FAIL");
    assertThat(locked).contains("list root=FAIL").contains("credentials refused");
    assertThat(all.stdout).doesNotContain("not-the-secret-e2e").doesNotContain(bucket);

    ChildJvm.Result one = dtap("doctor", "lake");
    assertThat(one.exit).as(one.tail()).isZero();
    assertThat(one.stdout).contains("TAP").contains("credentials work");
  }

  @Test
  @Tag("smoke")
  void cacheWarmThenListThroughTheShadedJar() throws IOException {
    ChildJvm.Result warm = dtap("cache", "warm", "dtap://lake/data");
    assertThat(warm.exit).as(warm.tail()).isZero();
    assertThat(warm.stdout)
        .as("not a terminal: plain progress lines")
        .contains("100% ")
        .contains("2 of 2 pages on disk");
    ChildJvm.Result ls = dtap("cache", "ls", "--json", "dtap://lake/data");
    assertThat(ls.exit).as(ls.tail()).isZero();
    assertThat(new ObjectMapper().readTree(ls.stdout).get("cached").asLong())
        .as("another JVM finds the pages")
        .isEqualTo(2);
  }

  /**
   * The node launcher, {@code dist/src/main/bin/dtap}, runs {@code hadoop jar}; here {@code hadoop}
   * is a shim that starts Hadoop's RunJar with Hadoop's class path, as the real command does.
   */
  @Test
  @Tag("smoke")
  void theNodeLauncherRunsCommandsThroughHadoopJar() throws Exception {
    File bin = new File(confDir.getParentFile(), "bin");
    Files.createDirectories(bin.toPath());
    File hadoop = new File(bin, "hadoop");
    String javaBin = new File(System.getProperty("java.home"), "bin/java").getAbsolutePath();
    String cp = String.join(File.pathSeparator, HadoopInstall.classpath(confDir));
    Files.writeString(
        hadoop.toPath(),
        "#!/bin/sh\n[ \"$1\" = jar ] || exit 64\nshift\nexec '"
            + javaBin
            + "' -cp '"
            + cp
            + "' org.apache.hadoop.util.RunJar \"$@\"\n");
    assertThat(hadoop.setExecutable(true)).isTrue();
    File launcher = new File(RepoRoot.find(), "dist/src/main/bin/dtap");
    File log = new File(bin, "launcher.out");
    ProcessBuilder pb =
        new ProcessBuilder("bash", launcher.getAbsolutePath(), "doctor", "lake")
            .redirectErrorStream(true)
            .redirectOutput(log);
    pb.environment()
        .put("PATH", bin.getAbsolutePath() + File.pathSeparator + System.getenv("PATH"));
    pb.environment().put("DTAP_JAR", HadoopInstall.dtapJar().getAbsolutePath());
    Process p = pb.start();
    assertThat(p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES))
        .as("the launcher finished")
        .isTrue();
    String output = Files.readString(log.toPath());
    assertThat(p.exitValue()).as(output).isZero();
    assertThat(output).contains("credentials work");
  }

  @Test
  void helpUsageErrorsAndVersion() throws IOException {
    ChildJvm.Result help = dtap("locality", "explain", "--help");
    assertThat(help.exit).isZero();
    assertThat(help.stdout).startsWith("Usage: dtap locality explain");
    ChildJvm.Result wrong = dtap("cache", "ls", "--bogus", "dtap://lake/data");
    assertThat(wrong.exit).isEqualTo(2);
    assertThat(Files.readString(wrong.log.toPath())).contains("unknown option --bogus");
    ChildJvm.Result version = dtap("version");
    assertThat(version.exit).isZero();
    assertThat(version.stdout)
        .as("the version from the jar's manifest")
        .startsWith("dtap 0.")
        .contains(" on Hadoop 3.");
  }
}
