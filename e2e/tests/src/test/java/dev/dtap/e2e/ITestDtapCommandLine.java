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
    // a quota of its own: 25 % of the volume (the default) warns when the disk is fuller than that
    site.set("fs.dtap.cache.max.size", "1g");
    site.set("fs.dtap.cache.deadline", "1m"); // a GC pause on a loaded machine is no slow disk here
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
    return dtapWith(confDir, args);
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
   * The host cache service as {@code hadoop jar dtap-hadoop.jar cnode} runs it (a systemd unit's
   * command): it listens, the doctor finds it, a warm-up through it lands on its disk, and SIGTERM
   * stops it cleanly.
   */
  @Test
  @Tag("smoke")
  void theCacheServiceRunsAsACommandThroughTheShadedJar() throws Exception {
    File dir = confDir.getParentFile();
    File socket = new File(dir, "cnode/sock");
    String secret = "dtapCanary7Q-cnode-cli-" + Long.toHexString(System.nanoTime());
    Configuration cnode = new Configuration(false);
    cnode.set("fs.dtap.cnode.socket", socket.getAbsolutePath());
    cnode.set("fs.dtap.cnode.secret", secret);
    cnode.set("fs.dtap.cnode.port", "0");
    cnode.set("fs.dtap.cnode.bind.host", "127.0.0.1");
    // in the service's site too, as one core-site.xml serves both on a host: the service gives a
    // client twenty times its connect bound to authenticate (a new JVM on a loaded machine took
    // more than the default's 1 s)
    cnode.set("fs.dtap.cnode.connect.timeout", "2s");
    cnode.set("fs.dtap.cnode.request.timeout", "2s");
    // the service's own site: its directories; the clients' site adds the socket and secret
    File serviceConf = new File(dir, "cnode-conf");
    Files.createDirectories(serviceConf.toPath());
    Configuration service = new Configuration(cnode);
    service.set("fs.dtap.cache.dirs", new File(dir, "cnode-pages").getAbsolutePath());
    service.set("fs.dtap.cache.max.size", "1g");
    try (OutputStream out =
        Files.newOutputStream(new File(serviceConf, "core-site.xml").toPath())) {
      service.writeXml(out);
    }
    File clientConf = new File(dir, "cnode-client-conf");
    Files.createDirectories(clientConf.toPath());
    Configuration client = new Configuration(false);
    client.addResource(new org.apache.hadoop.fs.Path(new File(confDir, "core-site.xml").toURI()));
    client.set("fs.dtap.cnode.socket", socket.getAbsolutePath());
    client.set("fs.dtap.cnode.secret", secret);
    client.set("fs.dtap.cnode.connect.timeout", cnode.get("fs.dtap.cnode.connect.timeout"));
    client.set("fs.dtap.cnode.request.timeout", cnode.get("fs.dtap.cnode.request.timeout"));
    try (OutputStream out = Files.newOutputStream(new File(clientConf, "core-site.xml").toPath())) {
      client.writeXml(out);
    }
    try (ChildJvm.Running node =
        new ChildJvm("dtap-cnode")
            .classpath(HadoopInstall.classpath(serviceConf))
            .start(
                "org.apache.hadoop.util.RunJar",
                HadoopInstall.dtapJar().getAbsolutePath(),
                "cnode")) {
      assertThat(node.awaitLine("dtap cnode: serving host", 2)).contains(socket.getPath());
      ChildJvm.Result doctor = dtapWith(clientConf, "doctor", "--json", "lake");
      String cnodeRow = "";
      for (JsonNode r : new ObjectMapper().readTree(doctor.stdout).get("checks")) {
        if (r.get("check").asText().equals("cnode")) {
          cnodeRow = r.get("status").asText() + " " + r.get("detail").asText();
        }
      }
      assertThat(cnodeRow).as(doctor.tail()).startsWith("OK").contains("answers");
      ChildJvm.Result warm = dtapWith(clientConf, "cache", "warm", "dtap://lake/data");
      assertThat(warm.exit).as(warm.tail()).isZero();
      ChildJvm.Result stats = dtapWith(clientConf, "cache", "stats", "--json");
      assertThat(stats.exit).as(stats.tail()).isZero();
      long pages = -1;
      for (JsonNode row : new ObjectMapper().readTree(stats.stdout).get("cache service")) {
        if (row.get("counter").asText().equals("cnode_pages")) {
          pages = row.get("value").asLong();
        }
      }
      assertThat(pages).as("the warmed pages are on the service's disk").isEqualTo(2);
      assertThat(doctor.stdout + warm.stdout + stats.stdout).doesNotContain(secret);
      node.process.destroy(); // SIGTERM, as systemd stops it
      assertThat(node.process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    }
    assertThat(socket).as("a stopped service removes its socket").doesNotExist();
  }

  private ChildJvm.Result dtapWith(File conf, String... args) throws IOException {
    String[] runJar = new String[args.length + 1];
    runJar[0] = HadoopInstall.dtapJar().getAbsolutePath();
    System.arraycopy(args, 0, runJar, 1, args.length);
    return new ChildJvm("dtap-" + args[0])
        .classpath(HadoopInstall.classpath(conf))
        .jvmArg(ChildJvm.SHORT_LIVED)
        .run("org.apache.hadoop.util.RunJar", 5, runJar);
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
