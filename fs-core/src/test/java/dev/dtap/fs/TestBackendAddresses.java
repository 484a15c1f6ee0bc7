package dev.dtap.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class TestBackendAddresses {
  private final Configuration conf = new Configuration(false);

  @Test
  void anS3BucketIsReachedThroughItsEndpointThePerBucketOneFirst() {
    URI root = URI.create("s3a://bucket/warehouse");
    assertThat(BackendAddresses.of(root, conf)).as("AWS's own endpoints need no setting").isEmpty();
    conf.set("fs.s3a.endpoint", "http://minio.internal:9000");
    assertThat(BackendAddresses.of(root, conf)).containsExactly("minio.internal:9000");
    conf.set("fs.s3a.bucket.bucket.endpoint", " ceph.example.com ");
    assertThat(BackendAddresses.of(root, conf)).containsExactly("ceph.example.com");
    conf.set("fs.s3a.bucket.bucket.endpoint", "https://[::1]:9443/");
    assertThat(BackendAddresses.of(root, conf)).containsExactly("[::1]:9443");
  }

  @Test
  void anHdfsRootNamesItsNameNodeOrEveryNameNodeOfItsNameservice() {
    assertThat(BackendAddresses.of(URI.create("hdfs://nn.example.com:8020/data"), conf))
        .containsExactly("nn.example.com:8020");
    conf.set("dfs.ha.namenodes.lake", "nn1, nn2");
    conf.set("dfs.namenode.rpc-address.lake.nn1", "nn1.example.com:8020");
    conf.set("dfs.namenode.rpc-address.lake.nn2", "nn2.example.com:8020");
    conf.set("dfs.namenode.http-address.lake.nn1", "nn1.example.com:9870");
    assertThat(BackendAddresses.of(URI.create("hdfs://lake/data"), conf))
        .containsExactly(
            "lake", "nn1.example.com:8020", "nn1.example.com:9870", "nn2.example.com:8020");
    conf.set("dfs.namenode.rpc-address.fed", "fed-nn.example.com:8020");
    assertThat(BackendAddresses.of(URI.create("hdfs://fed/"), conf))
        .as("a federated nameservice without HA")
        .containsExactly("fed", "fed-nn.example.com:8020");
  }

  @Test
  void localRootsAndUnreadableEndpointsNameNothing() {
    assertThat(BackendAddresses.of(URI.create("file:/mnt/nfs/x"), conf)).isEmpty();
    conf.set("fs.s3a.endpoint", "http://bad host:9000");
    assertThat(BackendAddresses.of(URI.create("s3a://bucket/"), conf)).isEmpty();
  }

  @Test
  void userInfoIsNoPartOfAnAddress() {
    assertThat(BackendAddresses.of(URI.create("hdfs://etl@nn.example.com:8020/"), conf))
        .containsExactly("nn.example.com:8020");
    conf.set("fs.s3a.endpoint", "http://u@minio_1:9000");
    assertThat(BackendAddresses.of(URI.create("s3a://bucket/"), conf))
        .containsExactly("minio_1:9000");
    conf.set("fs.s3a.endpoint", "//:9000");
    assertThat(BackendAddresses.of(URI.create("s3a://bucket/"), conf)).isEmpty();
  }

  @Test
  void aHostNameNoUriTakesAsAHostIsKeptAsWritten() {
    conf.set("fs.s3a.endpoint", "http://minio_1:9000");
    assertThat(BackendAddresses.of(URI.create("s3a://bucket/"), conf))
        .containsExactly("minio_1:9000");
  }

  @Test
  void aSettingThatCannotBeReadNeverFailsTheTap() {
    conf.set("fs.s3a.endpoint", "${loop}");
    conf.set("loop", "${fs.s3a.endpoint}");
    assertThat(BackendAddresses.of(URI.create("s3a://bucket/"), conf)).isEmpty();
    conf.set("dfs.ha.namenodes.lake", "nn1,nn2");
    conf.set("dfs.namenode.rpc-address.lake.nn1", "${loop}");
    conf.set("dfs.namenode.rpc-address.lake.nn2", "nn2.example.com:8020");
    assertThat(BackendAddresses.of(URI.create("hdfs://lake/"), conf))
        .as("one unreadable key does not hide the next NameNode")
        .containsExactly("lake", "nn2.example.com:8020");
  }
}
