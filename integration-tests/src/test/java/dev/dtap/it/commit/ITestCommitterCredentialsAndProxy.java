package dev.dtap.it.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.CommitTesting;
import dev.dtap.fs.testing.Canary;
import dev.dtap.it.fixtures.MinioFixture;
import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.security.alias.CredentialProvider;
import org.apache.hadoop.security.alias.CredentialProviderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The committers take the tap's credentials and proxy as S3A does, every request through S3A's own
 * client: Hadoop's default credential provider list with plain keys (its first provider, for
 * session credentials, has none and S3A falls through), a provider class of the user's own, a
 * secret kept in a Hadoop credential provider, and an HTTP proxy with Basic credentials through
 * which every request of a job is counted. And each of their requests through S3A's client runs in
 * an S3A audit span, as S3A's own do, so a tap whose S3A refuses requests outside spans ({@code
 * fs.s3a.audit.reject.out.of.span.operations}) commits; the proxy sees every upload request carry
 * the span's audit header.
 */
class ITestCommitterCredentialsAndProxy {
  private static int taps;

  private FileSystem fs;

  @AfterEach
  void close() throws Exception {
    if (fs != null) {
      fs.close();
    }
  }

  /** A tap over a new bucket with the fixture's settings, less those a test replaces. */
  private static Configuration tap(MinioFixture minio, String tap) {
    String bucket = minio.createBucket("creds");
    Configuration conf = minio.addTap(new Configuration(), tap, bucket, "w");
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
    return conf;
  }

  private static String backend(String tap, String key) {
    return "fs.dtap.tap." + tap + ".conf." + key;
  }

  /**
   * Runs a two-task job into the tap, with the committer {@code conf} names, and checks its output.
   */
  private void job(Configuration conf, String tap) throws Exception {
    fs = FileSystem.newInstance(new Path("dtap://" + tap + "/").toUri(), conf);
    Path dest = new Path("dtap://" + tap + "/out");
    List<String> files = new CommitJob(conf, dest).run(2, () -> {});
    for (int t = 0; t < files.size(); t++) {
      try (FSDataInputStream in = fs.open(new Path(dest, files.get(t)))) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo(CommitTesting.taskLine(t));
      }
    }
    assertThat(fs.exists(new Path(dest, "_SUCCESS"))).isTrue();
  }

  @Test
  void hadoopsDefaultProviderListWithKeys() throws Exception {
    MinioFixture minio = MinioFixture.get();
    String tap = "defaults" + (++taps);
    Configuration conf = tap(minio, tap);
    conf.unset(backend(tap, "fs.s3a.aws.credentials.provider"));
    job(conf, tap);
  }

  @Test
  void aCredentialProviderClassOfTheUsersOwn() throws Exception {
    MinioFixture minio = MinioFixture.get();
    String tap = "custom" + (++taps);
    Configuration conf = tap(minio, tap);
    conf.unset(backend(tap, "fs.s3a.access.key"));
    conf.unset(backend(tap, "fs.s3a.secret.key"));
    conf.set(
        backend(tap, "fs.s3a.aws.credentials.provider"), UserCredentialsProvider.class.getName());
    conf.set(backend(tap, UserCredentialsProvider.ACCESS), minio.accessKey());
    conf.set(backend(tap, UserCredentialsProvider.SECRET), minio.secretKey());
    int before = UserCredentialsProvider.CALLS.get();
    job(conf, tap);
    assertThat(UserCredentialsProvider.CALLS.get())
        .as("the provider gave the credentials")
        .isGreaterThan(before);
  }

  @Test
  void aSecretInAHadoopCredentialProvider(@TempDir File dir) throws Exception {
    MinioFixture minio = MinioFixture.get();
    String tap = "jceks" + (++taps);
    Configuration conf = tap(minio, tap);
    // a directory JUnit deletes: the keystore holds the store's secret
    String providerPath = "localjceks://file" + new File(dir, "creds.jceks").getAbsolutePath();
    Configuration store = new Configuration(false);
    store.set(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, providerPath);
    CredentialProvider p = CredentialProviderFactory.getProviders(store).get(0);
    p.createCredentialEntry("fs.s3a.secret.key", minio.secretKey().toCharArray());
    p.flush();
    conf.unset(backend(tap, "fs.s3a.secret.key"));
    conf.set(backend(tap, CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH), providerPath);
    job(conf, tap);
  }

  @ParameterizedTest(name = "{0} committer")
  @ValueSource(strings = {"magic", "staging"})
  void s3aRefusingRequestsOutsideAuditSpansRefusesNoneOfTheCommitters(String committer)
      throws Exception {
    MinioFixture minio = MinioFixture.get();
    String tap = "audit" + (++taps);
    Configuration conf = tap(minio, tap);
    conf.set("fs.dtap.committer.name", committer);
    conf.set("fs.dtap.committer.conflict-mode", "replace");
    conf.set(backend(tap, "fs.s3a.audit.enabled"), "true");
    conf.set(backend(tap, "fs.s3a.audit.reject.out.of.span.operations"), "true");
    job(conf, tap);
    // a second job over the first: the committers list, read and delete what the first left
    fs.close();
    fs = null;
    job(conf, tap);
  }

  @Test
  void everyRequestOfAJobGoesThroughTheProxy() throws Exception {
    MinioFixture minio = MinioFixture.get();
    String password = Canary.secret("proxy");
    try (CountingProxy proxy = new CountingProxy("dtap-proxy-user", password)) {
      String tap = "proxy" + (++taps);
      Configuration conf = tap(minio, tap);
      conf.set(backend(tap, "fs.s3a.proxy.host"), "127.0.0.1");
      conf.set(backend(tap, "fs.s3a.proxy.port"), Integer.toString(proxy.port()));
      conf.set(backend(tap, "fs.s3a.proxy.username"), "dtap-proxy-user");
      conf.set(backend(tap, "fs.s3a.proxy.password"), password);
      fs = FileSystem.newInstance(new Path("dtap://" + tap + "/").toUri(), conf);
      try (FSDataOutputStream out = fs.create(new Path("dtap://" + tap + "/through-s3a"))) {
        out.write(1);
      }
      boolean hadoop33 = org.apache.hadoop.util.VersionInfo.getVersion().startsWith("3.3.");
      assertThat(CommitTesting.store(new Path("dtap://" + tap + "/"), conf).toString())
          .as("the committers' store")
          .contains(hadoop33 ? "S3aV1Store" : "S3aV2Store");
      Map<String, Long> before = minio.requestCounts();
      long forwardedBefore = proxy.forwarded();
      int logged = proxy.log().size();
      Path dest = new Path("dtap://" + tap + "/out");
      CommitJob commitJob = new CommitJob(conf, dest);
      commitJob.run(3, () -> {});
      String jobId = commitJob.id().toString();
      long server = 0;
      for (long n : MinioFixture.delta(before, minio.requestCounts()).values()) {
        server += n;
      }
      assertThat(server).as("requests MinIO answered during the job").isGreaterThan(10);
      assertThat(proxy.forwarded() - forwardedBefore)
          .as("every one of them came through the proxy")
          .isEqualTo(server);
      assertThat(proxy.challenged())
          .as("clients were asked for the proxy's credentials")
          .isGreaterThan(0);
      List<CountingProxy.Forwarded> all = proxy.log();
      List<CountingProxy.Forwarded> job = all.subList(logged, all.size());
      // tasks' requests name the job and their attempt, job commit's the job only, as S3A's
      // committers' requests do; part uploads and completions run on pool threads
      assertThat(auditedAs(job, "POST", "uploads", "dtap_committer_initiate", jobId, true))
          .as("initiates among %s", job)
          .containsExactlyInAnyOrder(attempts(commitJob, 3));
      assertThat(auditedAs(job, "PUT", "partNumber", "dtap_committer_upload_part", jobId, true))
          .as("parts among %s", job)
          .containsExactlyInAnyOrder(attempts(commitJob, 3));
      assertThat(auditedAs(job, "POST", "uploadId", "dtap_committer_complete", jobId, false))
          .as("completes among %s", job)
          .containsExactly("", "", "");
    }
  }

  /**
   * The multipart requests of one kind, checking that each carries the {@code Referer} of S3A's
   * logging auditor (on by default) naming the committers' span and the job.
   *
   * @return the task attempt each request names ({@code ta=}), or "" for none; a task's request
   *     without one, or a job's with one, fails the test
   */
  private static List<String> auditedAs(
      List<CountingProxy.Forwarded> requests,
      String method,
      String parameter,
      String span,
      String jobId,
      boolean taskSide) {
    List<String> attempts = new ArrayList<>();
    for (CountingProxy.Forwarded r : requests) {
      String query = URI.create(r.target).getRawQuery();
      if (r.method.equals(method)
          && query != null
          && Arrays.asList(query.replaceAll("=[^&]*", "").split("&")).contains(parameter)) {
        assertThat(r.referer)
            .as("S3A's audit header on %s", r)
            .contains("op=" + span)
            .contains("ji=" + jobId);
        Matcher attempt = Pattern.compile("[?&]ta=([^&]*)").matcher(r.referer);
        assertThat(attempt.find())
            .as("a task attempt named in the audit header of %s", r)
            .isEqualTo(taskSide);
        attempts.add(taskSide ? attempt.group(1) : "");
      }
    }
    return attempts;
  }

  private static String[] attempts(CommitJob job, int tasks) {
    String[] ids = new String[tasks];
    for (int t = 0; t < tasks; t++) {
      ids[t] = new TaskAttemptID(new TaskID(job.id(), TaskType.MAP, t), 0).toString();
    }
    return ids;
  }
}
