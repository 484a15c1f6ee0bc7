package dev.dtap.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dtap.fs.testing.Canary;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** Every command's help and usage errors, and the doctor and cache commands on local taps. */
class TestToolCommands {
  private static final String[] COMMANDS = {
    "taps",
    "check",
    "doctor",
    "cache stats",
    "cache ls",
    "cache evict",
    "cache warm",
    "locality explain",
    "committer pending",
    "committer abort",
    "committer recover",
    "bench read",
    "cnode",
    "version"
  };

  private final ToolHarness tool = new ToolHarness();

  @Test
  void everyCommandExplainsItselfWithHelp() throws Exception {
    Configuration conf = LocalTaps.newConf();
    for (String c : COMMANDS) {
      List<String> args = new ArrayList<>(List.of(c.split(" ")));
      args.add("--help");
      assertThat(tool.run(conf, args.toArray(new String[0]))).as(c + " --help").isZero();
      assertThat(tool.out())
          .as(c)
          .startsWith("Usage: dtap " + c)
          .contains("Exit codes: 0 ok, 1 a problem found, 2 a usage error");
    }
    assertThat(tool.run(conf, "--help")).isZero();
    for (String c : COMMANDS) {
      assertThat(tool.out()).as("the list of commands").contains("  " + c);
    }
    assertThat(tool.run(conf, "cache", "--help")).isZero();
    assertThat(tool.out()).contains("cache warm").doesNotContain("doctor");
  }

  @Test
  void wrongArgumentsAreUsageErrors() throws Exception {
    Configuration conf = LocalTaps.newConf();
    assertThat(tool.run(conf, "doctor", "--bogus")).isEqualTo(2);
    assertThat(tool.err()).contains("unknown option --bogus").contains("Usage: dtap doctor");
    assertThat(tool.run(conf, "cache")).isEqualTo(2);
    assertThat(tool.err()).contains("dtap cache: which one?").contains("cache stats");
    assertThat(tool.run(conf, "cache", "shred")).isEqualTo(2);
    assertThat(tool.err()).contains("unknown command 'shred'");
    assertThat(tool.run(conf, "cache", "ls")).isEqualTo(2);
    assertThat(tool.err()).contains("expected one dtap path, got 0 arguments");
    assertThat(tool.run(conf, "cache", "ls", "s3a://bucket/x")).isEqualTo(2);
    assertThat(tool.err()).contains("expected a dtap://<tap>/<path> path");
    assertThat(tool.run(conf, "doctor", "--timeout", "soon")).isEqualTo(2);
    assertThat(tool.err()).contains("--timeout expects a positive number of seconds, got 'soon'");
    assertThat(tool.run(conf, "locality", "explain", "--timeout")).isEqualTo(2);
    assertThat(tool.err()).contains("--timeout needs a value");
    assertThat(tool.run(conf, "version", "extra")).isEqualTo(2);
  }

  @Test
  void cnodeWithoutASocketSaysWhichKeyToSet() throws Exception {
    assertThat(tool.run(LocalTaps.newConf(), "cnode")).isEqualTo(1);
    assertThat(tool.err()).contains("fs.dtap.cnode.socket");
  }

  @Test
  void doctorFailsACacheServiceThatDoesNotAnswer() throws Exception {
    File root = LocalTaps.newDir("doctor-cnode");
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "good", root);
    conf.set("fs.dtap.cnode.socket", new File(root, "no-service.sock").getAbsolutePath());
    conf.set("fs.dtap.cnode.secret", Canary.secret("cnode-doctor"));
    assertThat(tool.run(conf, "doctor", "--json")).isEqualTo(1);
    assertThat(status(tool.json().get("checks"), "-", "cnode")).isEqualTo("FAIL");
    assertThat(tool.out())
        .contains("no-service.sock")
        .doesNotContain(Canary.secret("cnode-doctor"));
    conf.unset("fs.dtap.cnode.secret");
    assertThat(tool.run(conf, "doctor")).isEqualTo(1);
    assertThat(tool.out()).contains("fs.dtap.cnode.secret is required");
  }

  @Test
  void doctorChecksEachTapOnItsOwnAndSaysWhatToFix() throws Exception {
    File root = LocalTaps.newDir("doctor");
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "good", root);
    conf.set("fs.dtap.tap.good.conf.fs.s3a.secret.key", Canary.secret("doctor"));
    LocalTaps.addTap(conf, "gone", new File(root, "no-such-dir"));
    conf.set("fs.dtap.tap.typo.uri", root.toURI().toString());
    conf.set("fs.dtap.tap.typo.readOnly", "true");
    conf.set("fs.dtap.tap.nofs.uri", "nofs://somewhere/x");
    File cacheFile = new File(root, "a-file-not-a-dir");
    Files.write(cacheFile.toPath(), new byte[1]);
    LocalTaps.addTap(conf, "cached", root);
    conf.set("fs.dtap.tap.cached.cache", "true");
    conf.set("fs.dtap.cache.dirs", cacheFile.getAbsolutePath());

    assertThat(tool.run(conf, "doctor", "--json")).as("problems found").isEqualTo(1);
    JsonNode checks = tool.json().get("checks");
    assertThat(status(checks, "good", "backend")).isEqualTo("OK");
    assertThat(status(checks, "good", "list root")).isEqualTo("OK");
    assertThat(status(checks, "good", "cache")).isEqualTo("SKIP");
    assertThat(status(checks, "gone", "list root")).isEqualTo("FAIL");
    assertThat(detail(checks, "gone", "list root"))
        .contains("the tap root does not exist")
        .contains("fs.dtap.tap.gone.uri");
    assertThat(status(checks, "typo", "settings")).isEqualTo("FAIL");
    assertThat(detail(checks, "typo", "settings")).contains("fs.dtap.tap.typo.readOnly");
    assertThat(status(checks, "nofs", "classpath")).isEqualTo("FAIL");
    assertThat(detail(checks, "nofs", "classpath")).contains("no FileSystem for nofs://");
    assertThat(status(checks, "cached", "backend")).isEqualTo("OK");
    assertThat(status(checks, "cached", "cache")).isEqualTo("FAIL");
    assertThat(detail(checks, "cached", "cache"))
        .contains("is not a directory")
        .contains("fs.dtap.cache.dirs");
    assertThat(tool.out()).doesNotContain(Canary.MARKER);

    assertThat(tool.run(conf, "doctor", "good")).as("the good tap alone").isZero();
    assertThat(tool.out()).contains("good").contains("list root").contains("credentials work");
    assertThat(tool.run(conf, "doctor", "nosuch")).isEqualTo(1);
    assertThat(tool.out()).contains("no such tap: add fs.dtap.tap.nosuch.uri");
  }

  @Test
  void aSettingAfterTheCommandAppliesAsOneBeforeIt() throws Exception {
    String uri = LocalTaps.newDir("late-settings").toURI().toString();
    Configuration conf = LocalTaps.newConf();
    // the tap exists only through the setting given on the command line
    assertThat(tool.run(conf, "-D", "fs.dtap.tap.late.uri=" + uri, "doctor", "late"))
        .as("before the command")
        .isZero();
    assertThat(tool.out()).contains("late").contains("list root");
    assertThat(tool.run(conf, "doctor", "-D", "fs.dtap.tap.late.uri=" + uri, "late"))
        .as("after the command")
        .isZero();
    assertThat(tool.out()).contains("late").contains("list root");
    assertThat(tool.run(conf, "doctor", "late", "-Dfs.dtap.tap.late.uri=" + uri))
        .as("joined, after the tap")
        .isZero();
    assertThat(tool.out()).contains("list root").doesNotContain("no such tap");
  }

  @Test
  void aGenericOptionTheCommandCannotApplyIsAUsageErrorNotATapName() throws Exception {
    Configuration conf = LocalTaps.newConf();
    assertThat(tool.run(conf, "doctor", "-D")).isEqualTo(2);
    assertThat(tool.err()).contains("-D needs key=value");
    assertThat(tool.run(conf, "doctor", "-D", "late")).isEqualTo(2);
    assertThat(tool.err()).contains("-D needs key=value");
    // ToolRunner hands a joined -Dlate on as "-D", "late"
    assertThat(tool.run(conf, "doctor", "-Dlate")).isEqualTo(2);
    assertThat(tool.err()).contains("-D needs key=value");
    assertThat(tool.run(conf, "doctor", "-conf", "site.xml")).isEqualTo(2);
    assertThat(tool.err())
        .contains("-conf is one of Hadoop's generic options: put it before the command")
        .doesNotContain("no such tap");
    assertThat(tool.out()).doesNotContain("no such tap");
  }

  @Test
  void doctorReportsObsoleteKeysWithoutFailing() throws Exception {
    File root = LocalTaps.newDir("doctor-obsolete");
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "good", root);
    assertThat(tool.run(conf, "doctor", "--json")).isZero();
    assertThat(tool.out()).doesNotContain("obsolete");
    conf.set("fs.dtap.committer.transport", "http");
    conf.set("fs.dtap.committer.signed-payload", "false");
    assertThat(tool.run(conf, "doctor", "--json")).as("a warning, not a failure").isZero();
    JsonNode checks = tool.json().get("checks");
    assertThat(status(checks, "-", "obsolete keys")).isEqualTo("WARN");
    assertThat(detail(checks, "-", "obsolete keys"))
        .contains("fs.dtap.committer.transport is no longer read")
        .contains("fs.dtap.committer.signed-payload is no longer read")
        .contains("remove it");
  }

  @Test
  void cacheCommandsNeedTheCacheOn() throws Exception {
    File root = LocalTaps.newDir("cachecmd");
    Files.write(new File(root, "a").toPath(), new byte[10]);
    Configuration conf = LocalTaps.addTap(LocalTaps.newConf(), "plain", root);
    assertThat(tool.run(conf, "cache", "ls", "dtap://plain/a")).isEqualTo(1);
    assertThat(tool.err())
        .contains("The read cache is off for tap 'plain': set fs.dtap.tap.plain.cache=true");
    assertThat(tool.run(conf, "cache", "stats")).isEqualTo(1);
    assertThat(tool.err()).contains("No tap has the read cache on");
  }

  private static String status(JsonNode checks, String tap, String check) {
    return find(checks, tap, check).get("status").asText();
  }

  private static String detail(JsonNode checks, String tap, String check) {
    return find(checks, tap, check).get("detail").asText();
  }

  private static JsonNode find(JsonNode checks, String tap, String check) {
    for (JsonNode row : checks) {
      if (row.get("tap").asText().equals(tap) && row.get("check").asText().equals(check)) {
        return row;
      }
    }
    throw new AssertionError("no check " + check + " for tap " + tap + " in " + checks);
  }
}
