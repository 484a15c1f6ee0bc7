package dev.dtap.it.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.it.fixtures.ErrorText;
import dev.dtap.it.fixtures.RepoRoot;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Delegation tokens through a dtap tap over a Kerberos-secured HDFS (MiniKdc, MiniDFSCluster), as a
 * secure cluster runs a job: the submitter, logged in with a keytab, collects the tokens of a dtap
 * path; a task, holding only those tokens and no Kerberos ticket, reads and writes through dtap;
 * without them, it is refused. Runs in a JVM of its own (a failsafe execution of its own): Kerberos
 * login state is global to a JVM.
 */
class ITestKerberosHdfsTokens {
  private static final String HOST = "localhost";
  private static MiniKdc kdc;
  private static MiniDFSCluster hdfs;
  private static Configuration conf;
  private static File keytab;

  @BeforeAll
  static void startKdcAndSecureHdfs() throws Exception {
    File dir = new File(RepoRoot.data(), "kerberos-" + System.nanoTime());
    assertThat(dir.mkdirs()).isTrue();
    kdc = new MiniKdc(MiniKdc.createConf(), dir);
    kdc.start();
    keytab = new File(dir, "test.keytab");
    kdc.createPrincipal(keytab, "hdfs/" + HOST, "HTTP/" + HOST, "client");
    String realm = kdc.getRealm();

    Configuration c = new HdfsConfiguration();
    SecurityUtil.setAuthenticationMethod(UserGroupInformation.AuthenticationMethod.KERBEROS, c);
    c.setBoolean("hadoop.security.authorization", true);
    c.set("dfs.namenode.kerberos.principal", "hdfs/" + HOST + "@" + realm);
    c.set("dfs.namenode.keytab.file", keytab.getAbsolutePath());
    c.set("dfs.datanode.kerberos.principal", "hdfs/" + HOST + "@" + realm);
    c.set("dfs.datanode.keytab.file", keytab.getAbsolutePath());
    c.set("dfs.web.authentication.kerberos.principal", "HTTP/" + HOST + "@" + realm);
    c.set("dfs.web.authentication.kerberos.keytab", keytab.getAbsolutePath());
    c.setBoolean("dfs.block.access.token.enable", true);
    // a DataNode on unprivileged ports without SASL on data transfer: enough for tokens, which
    // are what this test is about (the NameNode's RPC is Kerberos and token authenticated)
    c.setBoolean("ignore.secure.ports.for.testing", true);
    c.setBoolean("dfs.permissions.enabled", false);
    c.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(dir, "hdfs").getAbsolutePath());
    UserGroupInformation.setConfiguration(c);
    hdfs = new MiniDFSCluster.Builder(c).numDataNodes(1).build();
    hdfs.waitActive();

    conf = new Configuration(hdfs.getConfiguration(0));
    conf.set("fs.dtap.tap.sec.uri", hdfs.getURI() + "/secure-tap");
    conf.setBoolean("fs.dtap.impl.disable.cache", true);
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.shutdown();
    }
    if (kdc != null) {
      kdc.stop();
    }
  }

  @Test
  void aTaskWithOnlyTheTokensReadsAndWritesThroughTheTap() throws Exception {
    UserGroupInformation submitter =
        UserGroupInformation.loginUserFromKeytabAndReturnUGI(
            "client@" + kdc.getRealm(), keytab.getAbsolutePath());
    assertThat(submitter.hasKerberosCredentials()).isTrue();
    byte[] data = new byte[300_000];
    new Random(42).nextBytes(data);
    Credentials credentials = new Credentials();
    Token<?>[] added =
        as(
            submitter,
            () -> {
              try (FileSystem dtap = dtap()) {
                write(dtap, new Path("dtap://sec/in/part-0"), data);
                return dtap.addDelegationTokens("client", credentials);
              }
            });
    assertThat(added).hasSize(1);
    assertThat(added[0].getKind().toString()).isEqualTo("HDFS_DELEGATION_TOKEN");
    assertThat(credentials.numberOfTokens()).isEqualTo(1);

    // a task: the user's name and the job's tokens, no ticket
    UserGroupInformation task = UserGroupInformation.createRemoteUser("client");
    task.addCredentials(credentials);
    assertThat(task.hasKerberosCredentials()).isFalse();
    byte[] back =
        as(
            task,
            () -> {
              try (FileSystem dtap = dtap()) {
                write(dtap, new Path("dtap://sec/out/part-0"), data);
                assertThat(dtap.listStatus(new Path("dtap://sec/out"))).hasSize(1);
                return read(dtap, new Path("dtap://sec/in/part-0"), data.length);
              }
            });
    assertThat(back).isEqualTo(data);
    byte[] written =
        as(
            submitter,
            () -> {
              try (FileSystem dtap = dtap()) {
                return read(dtap, new Path("dtap://sec/out/part-0"), data.length);
              }
            });
    assertThat(written).as("what the task wrote with the token").isEqualTo(data);

    // the same user without the tokens, as a task whose job never asked for them
    UserGroupInformation bare = UserGroupInformation.createRemoteUser("client");
    assertThatThrownBy(
            () ->
                as(
                    bare,
                    () -> {
                      try (FileSystem dtap = dtap()) {
                        return read(dtap, new Path("dtap://sec/in/part-0"), data.length);
                      }
                    }))
        .isInstanceOf(IOException.class)
        .satisfies(
            e ->
                assertThat(ErrorText.of(e))
                    .containsIgnoringCase("authenticat")
                    .contains("dtap://sec/in/part-0")
                    .doesNotContain(hdfs.getURI().getAuthority())
                    .doesNotContain("secure-tap"));
  }

  private static FileSystem dtap() throws IOException {
    return FileSystem.newInstance(URI.create("dtap://sec/"), conf);
  }

  private static void write(FileSystem fs, Path p, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true)) {
      out.write(data);
    }
  }

  private static byte[] read(FileSystem fs, Path p, int length) throws IOException {
    byte[] out = new byte[length];
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, out);
      assertThat(in.read(length, new byte[1], 0, 1)).as("end of " + p).isEqualTo(-1);
    }
    return out;
  }

  private static <T> T as(UserGroupInformation ugi, PrivilegedExceptionAction<T> action)
      throws Exception {
    try {
      return ugi.doAs(action);
    } catch (java.lang.reflect.UndeclaredThrowableException e) {
      throw (Exception) e.getCause();
    }
  }
}
