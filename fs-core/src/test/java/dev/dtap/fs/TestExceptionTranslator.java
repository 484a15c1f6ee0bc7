package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.fs.PathNotFoundException;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.Test;

class TestExceptionTranslator {
  private final ExceptionTranslator s3 =
      new ExceptionTranslator("lake", URI.create("s3a://bucket/warehouse"));
  private final ExceptionTranslator hdfs =
      new ExceptionTranslator("hist", URI.create("hdfs://nn.example.com:8020/data"));
  private final ExceptionTranslator local =
      new ExceptionTranslator("loc", URI.create("file:/mnt/nfs/x"));
  private final ExceptionTranslator hdfsRoot =
      new ExceptionTranslator("all", URI.create("hdfs://nn:8020/"));

  /** A translator for a root reached through one server. */
  private static ExceptionTranslator behind(String tap, String root, String address) {
    return new ExceptionTranslator(
        tap, URI.create(root), java.util.Collections.singletonList(address), () -> {});
  }

  @Test
  void messagesSpeakDtap() {
    assertThat(s3.translate("getFileStatus on s3a://bucket/warehouse/t/part-0: not found"))
        .isEqualTo("getFileStatus on dtap://lake/t/part-0: not found");
    assertThat(
            s3.translate(
                "Client error accessing s3://bucket/warehouse/t/part-0, failed with: reset"))
        .as("S3A 3.5's analytics stream names objects with the s3 scheme")
        .isEqualTo("Client error accessing dtap://lake/t/part-0, failed with: reset");
    assertThat(s3.translate("listing s3n://bucket/other"))
        .isEqualTo("listing [backend of tap 'lake']/other");
    assertThat(s3.translate("listing s3://bucket-archive/k and s3a://bucket.old/k"))
        .as("another bucket whose name starts with the tap's is not the tap's")
        .isEqualTo("listing s3://bucket-archive/k and s3a://bucket.old/k");
    assertThat(s3.translate("listing s3a://bucket")).isEqualTo("listing [backend of tap 'lake']");
    assertThat(s3.translate("listing S3A://bucket/warehouse/t and S3://bucket/x"))
        .as("a scheme in any case")
        .isEqualTo("listing dtap://lake/t and [backend of tap 'lake']/x");
    assertThat(s3.translate("listing s3a://BUCKET/warehouse/t"))
        .as("a bucket is named as written: another bucket")
        .isEqualTo("listing s3a://BUCKET/warehouse/t");
    assertThat(behind("g", "gs://bkt/w", "storage.googleapis.com").translate("read GS://bkt/w/x"))
        .isEqualTo("read dtap://g/x");
    assertThat(local.translate("File FILE:/mnt/nfs/x/y does not exist"))
        .isEqualTo("File dtap://loc/y does not exist");
    for (String end : new String[] {".", ":", "?", ",", ". Retry", ")"}) {
      assertThat(s3.translate("no access to s3a://bucket" + end))
          .as("the bucket followed by '%s'", end)
          .isEqualTo("no access to [backend of tap 'lake']" + end);
    }
    assertThat(hdfs.translate("File does not exist: /data/logs/a.log"))
        .isEqualTo("File does not exist: dtap://hist/logs/a.log");
    assertThat(
            hdfs.translate(
                "rename hdfs://nn.example.com:8020/data/a to hdfs://nn.example.com:8020/data/b"))
        .isEqualTo("rename dtap://hist/a to dtap://hist/b");
    assertThat(local.translate("File file:/mnt/nfs/x/y does not exist"))
        .isEqualTo("File dtap://loc/y does not exist");
    assertThat(local.translate("/mnt/nfs/x/y (No such file or directory)"))
        .isEqualTo("dtap://loc/y (No such file or directory)");
    assertThat(hdfsRoot.translate("File does not exist: hdfs://nn:8020/a/b"))
        .isEqualTo("File does not exist: dtap://all/a/b");
  }

  @Test
  void aRootAtASentencesEndIsRewrittenWholly() {
    assertThat(s3.translate("nothing under s3a://bucket/warehouse."))
        .isEqualTo("nothing under dtap://lake.");
    assertThat(s3.translate("list s3a://bucket/warehouse?")).isEqualTo("list dtap://lake?");
    assertThat(s3.translate("list s3a://bucket/warehouse.old/x"))
        .as("a sibling directory is not the root")
        .isEqualTo("list [backend of tap 'lake']/warehouse.old/x");
  }

  /** Texts as the AWS SDKs, Apache's HTTP client and Hadoop's RPC client write them. */
  @Test
  void clientsNamingTheBucketOrTheServersWithoutAUriAreRewritten() {
    ExceptionTranslator minio = behind("lake", "s3a://bucket/warehouse", "minio.internal:9000");
    assertThat(
            s3.translate(
                "User: arn:aws:iam::123456789012:user/etl is not authorized to perform:"
                    + " s3:PutObject on resource: \"arn:aws:s3:::bucket/warehouse/t/part-0\""
                    + " because no identity-based policy allows the s3:PutObject action"
                    + " (Service: S3, Status Code: 403, Request ID: R1)"))
        .isEqualTo(
            "User: arn:aws:iam::123456789012:user/etl is not authorized to perform:"
                + " s3:PutObject on resource: \"dtap://lake/t/part-0\""
                + " because no identity-based policy allows the s3:PutObject action"
                + " (Service: S3, Status Code: 403, Request ID: R1)");
    assertThat(s3.translate("denied on arn:aws-cn:s3:::bucket/other and arn:aws:s3:::bucket2/x"))
        .isEqualTo("denied on [backend of tap 'lake']/other and arn:aws:s3:::bucket2/x");
    assertThat(
            s3.translate(
                "java.net.UnknownHostException: bucket.s3.us-west-2.amazonaws.com: Name or"
                    + " service not known"))
        .isEqualTo(
            "java.net.UnknownHostException: [backend of tap 'lake']: Name or service not known");
    assertThat(s3.translate("GET https://bucket.s3.amazonaws.com/warehouse/t/part-0 failed"))
        .isEqualTo("GET dtap://lake/t/part-0 failed");
    assertThat(s3.translate("GET https://s3.eu-west-1.amazonaws.com/bucket/warehouse/a failed"))
        .isEqualTo("GET dtap://lake/a failed");
    String otherBucket = "Unable to execute HTTP request: bucket-logs.s3.amazonaws.com";
    assertThat(s3.translate(otherBucket)).isSameAs(otherBucket);
    assertThat(
            minio.translate(
                "Unable to execute HTTP request: Connect to minio.internal:9000"
                    + " [minio.internal/10.0.0.5] failed: Connection refused"))
        .isEqualTo(
            "Unable to execute HTTP request: Connect to [server of tap 'lake']"
                + " [[server of tap 'lake']] failed: Connection refused");
    assertThat(minio.translate("PUT http://minio.internal:9000/bucket/warehouse/k: 503"))
        .isEqualTo("PUT dtap://lake/k: 503");
    assertThat(minio.translate("PUT http://bucket.minio.internal:9000/warehouse/k: 503"))
        .isEqualTo("PUT dtap://lake/k: 503");
    String unrelated = "Connect to minio.internal.example:9000 and sub.minio.internal failed";
    assertThat(minio.translate(unrelated)).isSameAs(unrelated);
    ExceptionTranslator upper = behind("lake", "s3a://bucket/warehouse", "MINIO.Internal:9000");
    assertThat(upper.translate("PUT http://bucket.minio.internal:9000/warehouse/k: 503"))
        .as("host names in any case")
        .isEqualTo("PUT dtap://lake/k: 503");
    assertThat(upper.translate("PUT HTTP://Minio.Internal:9000/bucket/warehouse/k: 503"))
        .isEqualTo("PUT dtap://lake/k: 503");
    assertThat(upper.translate("PUT http://minio.internal:9000/BUCKET/warehouse/k: 503"))
        .as("a path-style bucket is a path: another bucket")
        .isEqualTo("PUT [server of tap 'lake']/BUCKET/warehouse/k: 503");
    assertThat(s3.translate("GET https://bucket.S3.Amazonaws.COM/warehouse/t/part-0 failed"))
        .isEqualTo("GET dtap://lake/t/part-0 failed");
    assertThat(s3.translate("GET https://S3.eu-west-1.amazonaws.com/bucket/warehouse/a failed"))
        .isEqualTo("GET dtap://lake/a failed");

    assertThat(
            hdfs.translate(
                "Call From edge.example.com/10.0.0.1 to nn.example.com:8020 failed on connection"
                    + " exception: java.net.ConnectException: Connection refused; For more"
                    + " details see:  http://wiki.apache.org/hadoop/ConnectionRefused"))
        .isEqualTo(
            "Call From edge.example.com/10.0.0.1 to [server of tap 'hist'] failed on"
                + " connection exception: java.net.ConnectException: Connection refused; For"
                + " more details see:  http://wiki.apache.org/hadoop/ConnectionRefused");
    assertThat(
            hdfs.translate(
                "Failed on local exception: java.io.IOException: Connection reset by peer; Host"
                    + " Details : local host is: \"edge/10.0.0.1\"; destination host is:"
                    + " \"nn.example.com\":8020; "))
        .doesNotContain("nn.example.com")
        .contains("local host is: \"edge/10.0.0.1\"");
    assertThat(
            hdfsRoot.translate(
                "Call From edge/10.0.0.1 to nn:8020 failed; destination host is: \"nn\":8020;"))
        .isEqualTo(
            "Call From edge/10.0.0.1 to [server of tap 'all'] failed; destination host is:"
                + " \"[server of tap 'all']\":8020;");
    assertThat(
            hdfs.translate(
                "read webhdfs://nn.example.com:9870/data/x and hdfs://nn.example.com/data/y"))
        .as("the NameNode by another port or none")
        .isEqualTo("read dtap://hist/x and dtap://hist/y");
    assertThat(hdfs.translate("read webhdfs://NN.Example.com:9870/data/x"))
        .as("the NameNode's host in any case")
        .isEqualTo("read dtap://hist/x");
    assertThat(minio.translate("PUT http://minio.internal:9000/bucket-logs/k: 503"))
        .as("another bucket on the same server is no path of the tap")
        .isEqualTo("PUT [server of tap 'lake']/bucket-logs/k: 503");
    ExceptionTranslator compose = behind("lake", "s3a://bucket/", "minio:9000");
    assertThat(compose.translate("Connect to minio:9000 [minio/172.18.0.2] failed"))
        .isEqualTo("Connect to [server of tap 'lake'] [[server of tap 'lake']] failed");
    String pathLikeAnAddress = "read dtap://lake/minio/2024/x and attempt minio/1";
    assertThat(compose.translate(pathLikeAnAddress))
        .as("only four numbers after the host are an address")
        .isSameAs(pathLikeAnAddress);
    assertThat(compose.translate("Connect to minio:9000 [minio/2001:db8:0:0:0:0:0:5] failed"))
        .as("an IPv6 address it resolved to")
        .isEqualTo("Connect to [server of tap 'lake'] [[server of tap 'lake']] failed");
    ExceptionTranslator nn = behind("hist", "hdfs://nn:8020/data", "nn:8020");
    assertThat(nn.translate("Call From vm/10.0.0.1 to nn/[2001:db8::1]:8020 failed"))
        .isEqualTo("Call From vm/10.0.0.1 to [server of tap 'hist'] failed");
    assertThat(nn.translate("Call From vm to nn/fe80::1%eth0:8020 failed"))
        .isEqualTo("Call From vm to [server of tap 'hist'] failed");
    String time = "read minio/12:30:45 and [minio/::1]";
    assertThat(compose.translate(time))
        .as("a time is no IPv6 address; a bracket of the message stays")
        .isEqualTo("read minio/12:30:45 and [[server of tap 'lake']]");
    String oneColon = "read dtap://lake/minio/2024:x";
    assertThat(compose.translate(oneColon)).as("one colon is no IPv6 address").isSameAs(oneColon);
    ExceptionTranslator v6 = behind("v", "s3a://bucket/", "[::1]");
    assertThat(v6.translate("Connect to [::1]:9000 failed"))
        .isEqualTo("Connect to [server of tap 'v'] failed");
    assertThat(
            compose.translate(
                "Unable to execute HTTP request: minio: Name or service not known (SDK Attempt 1)"))
        .as("a host the resolver does not know, named before the resolver's words")
        .isEqualTo(
            "Unable to execute HTTP request: [server of tap 'lake']: Name or service not known"
                + " (SDK Attempt 1)");
    assertThat(compose.translate("MINIO: Temporary failure in name resolution"))
        .isEqualTo("[server of tap 'lake']: Temporary failure in name resolution");
    String word = "nn layer failed";
    assertThat(hdfsRoot.translate(word)).as("a host without a dot needs its port").isSameAs(word);
  }

  @Test
  void aStreamErrorThatNamesNoFileIsGivenItsDtapPathAndKeepsItsClass() {
    java.net.SocketException reset = new java.net.SocketException("Connection reset");
    IOException named = s3.translate(reset, "dtap://lake/t/part-0");
    assertThat(named).isInstanceOf(java.net.SocketException.class).hasCause(reset);
    assertThat(named.getMessage()).isEqualTo("dtap://lake/t/part-0: Connection reset");

    java.io.EOFException eof = new java.io.EOFException(null);
    assertThat(s3.translate(eof, "dtap://lake/x"))
        .isInstanceOf(java.io.EOFException.class)
        .hasMessage("dtap://lake/x: java.io.EOFException");
  }

  @Test
  void objectKeysUnderTheRootSpeakDtap() {
    assertThat(s3.translate("Completing multipart upload on warehouse/t/part-0: NoSuchUpload"))
        .isEqualTo("Completing multipart upload on dtap://lake/t/part-0: NoSuchUpload");
    String other = "upload on mywarehouse/t and on warehouse-old/t";
    assertThat(s3.translate(other)).isSameAs(other);
    assertThat(hdfs.translate("read data/logs/a.log")).isEqualTo("read data/logs/a.log");
    assertThat(s3.translate("getFileStatus on warehouse: 403 Forbidden"))
        .as("the root's own key")
        .isEqualTo("getFileStatus on dtap://lake: 403 Forbidden");
    String word = "the warehouse is full. Retry the warehouse, warehouse? warehouse.";
    assertThat(s3.translate(word)).as("the key as a word of a sentence").isSameAs(word);
  }

  @Test
  void aStreamErrorThatNamesItsFileAlreadyIsOnlyRewritten() {
    IOException e = new IOException("read on s3a://bucket/warehouse/t/part-0: Connection reset");
    assertThat(s3.translate(e, "dtap://lake/t/part-0"))
        .hasMessage("read on dtap://lake/t/part-0: Connection reset")
        .isNotInstanceOf(PathIOException.class);
    PathNotFoundException p = new PathNotFoundException("s3a://bucket/warehouse/t");
    assertThat(s3.translate(p, "dtap://lake/t/part-0")).isInstanceOf(PathNotFoundException.class);
  }

  @Test
  void similarPrefixesAreNotRewritten() {
    String m = "File does not exist: /database/x and /data-old/y";
    assertThat(hdfs.translate(m)).isSameAs(m);
  }

  @Test
  void locationsOutsideTheRootAreMasked() {
    assertThat(s3.translate("copy s3a://bucket/other/key failed"))
        .doesNotContain("s3a://bucket")
        .contains("[backend of tap 'lake']");
  }

  @Test
  void unrelatedExceptionsAreReturnedAsIs() {
    IOException e = new IOException("connection reset");
    assertThat(s3.translate(e)).isSameAs(e);
  }

  @Test
  void typesArePreserved() {
    IOException fnfe = new FileNotFoundException("No such file s3a://bucket/warehouse/a");
    IOException t = s3.translate(fnfe);
    assertThat(t).isExactlyInstanceOf(FileNotFoundException.class);
    assertThat(t.getMessage()).isEqualTo("No such file dtap://lake/a");
    assertThat(t.getStackTrace()).isEqualTo(fnfe.getStackTrace());

    IOException exists = s3.translate(new FileAlreadyExistsException("s3a://bucket/warehouse/b"));
    assertThat(exists).isExactlyInstanceOf(FileAlreadyExistsException.class);

    IOException remote =
        hdfs.translate(
            new RemoteException(
                "org.apache.hadoop.hdfs.protocol.QuotaExceededException", "/data/q"));
    assertThat(remote).isInstanceOf(RemoteException.class);
    assertThat(((RemoteException) remote).getClassName()).endsWith("QuotaExceededException");
    assertThat(remote.getMessage()).isEqualTo("dtap://hist/q");
  }

  @Test
  void pathExceptionsAreRebuiltAroundTheDtapPath() {
    PathNotFoundException e = new PathNotFoundException("s3a://bucket/warehouse/p");
    IOException t = s3.translate(e);
    assertThat(t).isExactlyInstanceOf(PathNotFoundException.class);
    assertThat(((PathIOException) t).getPath().toString()).isEqualTo("dtap://lake/p");
    PathIOException custom = new PathIOException("s3a://bucket/warehouse/q", "throttled");
    IOException c = s3.translate(custom);
    assertThat(c.getMessage())
        .contains("dtap://lake/q")
        .contains("throttled")
        .doesNotContain("s3a:");
  }

  @Test
  void exceptionsWithoutAStringConstructorFallBackToTheirStandardAncestor() {
    IOException odd = new OddNotFound("gone: s3a://bucket/warehouse/z", 3);
    IOException t = s3.translate(odd);
    assertThat(t).isExactlyInstanceOf(FileNotFoundException.class);
    assertThat(t.getMessage()).isEqualTo("gone: dtap://lake/z");
  }

  @Test
  void causeChainsCarryNoBackendLocation() {
    IOException inner =
        new IOException(
            "read s3a://bucket/warehouse/k at 10",
            new IllegalStateException("endpoint said s3a://bucket/warehouse/k"));
    IOException outer = new IOException("open failed", inner);
    IOException t = s3.translate(outer);
    StringWriter sw = new StringWriter();
    t.printStackTrace(new PrintWriter(sw));
    assertThat(sw.toString()).doesNotContain("s3a://").contains("dtap://lake/k");
  }

  @Test
  void suppressedExceptionsAreRewrittenAndKept() {
    IOException closing = new IOException("abort of s3a://bucket/warehouse/k failed");
    IOException failure = new IOException("write failed");
    failure.addSuppressed(closing);
    failure.addSuppressed(new IOException("also: timeout"));
    IOException t = s3.translate(failure);
    assertThat(t.getSuppressed()).hasSize(2);
    assertThat(t.getSuppressed()[0]).hasMessage("abort of dtap://lake/k failed");
    assertThat(t.getSuppressed()[1]).hasMessage("also: timeout");

    IOException named = new IOException("read s3a://bucket/warehouse/k");
    named.addSuppressed(new IOException("also: timeout"));
    assertThat(s3.translate(named).getSuppressed())
        .as("a rewritten copy keeps what was suppressed")
        .hasSize(1);
  }

  @Test
  void anUnknownHostNamedAloneIsHiddenOnlyWhenItIsAServerOfTheTap() throws Exception {
    ExceptionTranslator compose = behind("lake", "s3a://bucket/", "minio:9000");
    IOException sdk =
        new IOException(
            "Received an UnknownHostException when attempting to interact with a service",
            new java.net.UnknownHostException("minio"));
    IOException t = compose.translate(sdk);
    assertThat(t.getCause())
        .isInstanceOf(java.net.UnknownHostException.class)
        .hasMessage("[server of tap 'lake']");
    IOException above =
        new IOException(
            "getFileStatus on s3a://bucket/t: Unable to execute HTTP request: minio",
            new IOException(
                "Request attempt 1 failure: Unable to execute HTTP request: minio",
                new java.net.UnknownHostException("minio: Name or service not known")));
    IOException named = compose.translate(above);
    assertThat(named)
        .as("once the JDK said it could not resolve the server, its bare name is hidden above it")
        .hasMessage(
            "getFileStatus on dtap://lake/t: Unable to execute HTTP request:"
                + " [server of tap 'lake']");
    assertThat(named.getCause())
        .hasMessage(
            "Request attempt 1 failure: Unable to execute HTTP request: [server of tap 'lake']");
    assertThat(named.getCause().getCause())
        .hasMessage("[server of tap 'lake']: Name or service not known");
    java.net.UnknownHostException other = new java.net.UnknownHostException("proxy");
    assertThat(compose.translate(other)).as("another host is not the tap's").isSameAs(other);
    IOException inPaths =
        new IOException(
            "getFileStatus on s3a://bucket/minio/x in tap 'minio' at dtap://minio/y: minio",
            new java.net.UnknownHostException("minio"));
    assertThat(compose.translate(inPaths))
        .as("a path segment, an authority or a quoted name spelled like the server is no server")
        .hasMessage(
            "getFileStatus on dtap://lake/minio/x in tap 'minio' at dtap://minio/y:"
                + " [server of tap 'lake']");
    IOException word = new IOException("minio");
    assertThat(compose.translate(word))
        .as("only the JDK's unknown host, not any word")
        .isSameAs(word);
  }

  @Test
  void anExceptionLeadingBackToItselfThatShowsNothingIsPassedOnAsItIs() {
    IOException a = new IOException("write failed");
    IOException b = new IOException("abort failed", a);
    a.addSuppressed(b);
    assertThat(s3.translate(a)).isSameAs(a);
    assertThat(a.getSuppressed()).containsExactly(b);
  }

  @Test
  void exceptionsThatLeadBackToThemselvesAreRewrittenOnce() {
    IOException a = new IOException("write s3a://bucket/warehouse/k failed");
    IOException b = new IOException("abort failed", a);
    a.addSuppressed(b);
    IOException t = s3.translate(a);
    assertThat(t).hasMessage("write dtap://lake/k failed");
    assertThat(t.getSuppressed()).hasSize(1);
    assertThat(t.getSuppressed()[0]).hasMessage("abort failed");
    StringWriter sw = new StringWriter();
    t.printStackTrace(new PrintWriter(sw));
    assertThat(sw.toString()).doesNotContain("s3a://");
  }

  /** A backend exception type with no (String) constructor. */
  static final class OddNotFound extends FileNotFoundException {
    private static final long serialVersionUID = 1L;

    OddNotFound(String message, int code) {
      super(message + "");
    }
  }
}
