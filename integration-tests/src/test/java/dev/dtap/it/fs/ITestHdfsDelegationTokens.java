package dev.dtap.it.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.it.fixtures.HdfsFixture;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;

/** Jobs on a dtap path over HDFS get the HDFS delegation token, the way MapReduce asks for it. */
class ITestHdfsDelegationTokens {
  @Test
  void tokensOfTheBackendAreCollected() throws Exception {
    HdfsFixture hdfs = HdfsFixture.get();
    Configuration conf = hdfs.conf();
    conf.set("fs.dtap.tap.tok.uri", hdfs.uri() + "/tokens");
    FileSystem dtap = FileSystem.get(URI.create("dtap://tok/"), conf);
    dtap.mkdirs(new Path("dtap://tok/in"));

    Credentials credentials = new Credentials();
    Token<?>[] added = dtap.addDelegationTokens("yarn", credentials);
    assertThat(added).hasSize(1);
    assertThat(added[0].getKind().toString()).isEqualTo("HDFS_DELEGATION_TOKEN");
    String expectedService = hdfs.fileSystem().getCanonicalServiceName();
    assertThat(added[0].getService().toString()).isEqualTo(expectedService);

    // asking again adds nothing: the token is already in the credentials (MapReduce's
    // TokenCache makes the same call per input and output path on a secure cluster)
    assertThat(dtap.addDelegationTokens("yarn", credentials)).isEmpty();
    assertThat(credentials.getAllTokens()).hasSize(1);
  }
}
