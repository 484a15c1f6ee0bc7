package dev.dtap.e2e;

import dev.dtap.it.fixtures.MinioFixture;
import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A MiniDFS and MiniYARN cluster in a process whose class path is Hadoop's jars and the dtap-hadoop
 * jar (so its containers run with exactly those), and the client configuration the tests write for
 * it, as an operator would: the cluster's addresses plus dtap's settings in {@code core-site.xml}.
 * Taps: {@code lake} over a MinIO bucket (cache and locality on) and {@code arch} over the
 * cluster's HDFS.
 */
final class MapReduceCluster implements AutoCloseable {
  final File dir;
  final File confDir;
  final String hdfs;
  final String bucket;
  private final HdfsCluster process;
  private final Configuration site;

  private MapReduceCluster(
      File dir, File confDir, String hdfs, String bucket, HdfsCluster process, Configuration site) {
    this.dir = dir;
    this.confDir = confDir;
    this.hdfs = hdfs;
    this.bucket = bucket;
    this.process = process;
    this.site = site;
  }

  /**
   * Starts the cluster with dtap configured the way an operator configures a cluster: one
   * core-site.xml, read by the cluster's daemons (a NodeManager localizes a job's files from
   * dtap:// paths) and by every client.
   *
   * @param name names the directory and bucket
   * @return the running cluster
   * @throws IOException if it does not start
   */
  static MapReduceCluster start(String name) throws IOException {
    return start(name, "lake", false, null);
  }

  /**
   * Starts the cluster with its S3 tap under another name and, for jobs that compare with S3A
   * itself, the bucket's S3A settings as S3A's per-bucket keys.
   *
   * @param name names the directory and bucket
   * @param s3Tap the S3 tap's name
   * @param s3aDirect whether {@code s3a://bucket/} works without dtap too
   * @param endpoint where the clients reach the store (a shaping proxy in front of it), or null
   * @return the running cluster
   * @throws IOException if it does not start
   */
  static MapReduceCluster start(String name, String s3Tap, boolean s3aDirect, java.net.URI endpoint)
      throws IOException {
    return start(name, s3Tap, s3aDirect, endpoint, null);
  }

  /**
   * Starts the cluster, its one NodeManager running dtap's host cache service when asked: the
   * service's settings go in the same core-site.xml, which the NodeManager and every task read.
   *
   * @param cnodeSecret the cluster secret of the cache service, or null for no service
   */
  static MapReduceCluster start(
      String name, String s3Tap, boolean s3aDirect, java.net.URI endpoint, String cnodeSecret)
      throws IOException {
    File dir = HdfsCluster.newDir(name);
    File confDir = new File(dir, "conf");
    Files.createDirectories(confDir.toPath());
    String hdfs = HdfsCluster.newHdfsUri();
    MinioFixture minio = MinioFixture.get();
    String bucket = minio.createBucket("e2e-" + name);
    Configuration site = new Configuration(false);
    site.set("fs.defaultFS", hdfs);
    // dtap, as the README's quick start adds it to core-site.xml
    site.set("fs.AbstractFileSystem.dtap.impl", "dev.dtap.fs.DataTapFs");
    site.set(
        "mapreduce.outputcommitter.factory.scheme.dtap", "dev.dtap.commit.DataTapCommitterFactory");
    String tap = "fs.dtap.tap." + s3Tap;
    site.set(tap + ".uri", "s3a://" + bucket + "/" + s3Tap);
    Map<String, String> s3a =
        new java.util.LinkedHashMap<>(minio.s3aSettings(minio.accessKey(), minio.secretKey()));
    if (endpoint != null) {
      s3a.put("fs.s3a.endpoint", endpoint.toString());
    }
    for (Map.Entry<String, String> e : s3a.entrySet()) {
      site.set(tap + ".conf." + e.getKey(), e.getValue());
      if (s3aDirect && e.getKey().startsWith("fs.s3a.")) {
        site.set(
            "fs.s3a.bucket." + bucket + "." + e.getKey().substring("fs.s3a.".length()),
            e.getValue());
      }
    }
    // the quick start names no credential provider: S3A's default list decides
    site.unset(tap + ".conf.fs.s3a.aws.credentials.provider");
    site.unset("fs.s3a.bucket." + bucket + ".aws.credentials.provider");
    site.set(tap + ".cache", "true");
    site.set(tap + ".locality", "true");
    site.set("fs.dtap.cache.dirs", new File(dir, "cache").getAbsolutePath());
    site.set("fs.dtap.tap.arch.uri", hdfs + "/arch");
    if (cnodeSecret != null) {
      // the NodeManager's service: its socket, cache directory and secret; tasks read the same keys
      site.set("fs.dtap.cnode.socket", new File(dir, "cnode/socket").getAbsolutePath());
      site.set("fs.dtap.cnode.secret", cnodeSecret);
      site.set("fs.dtap.cnode.port", "0");
      site.set("fs.dtap.cnode.bind.host", "127.0.0.1");
      site.set("fs.dtap.cache.max.size", "2g");
      // eight task JVMs starting beside the cluster on two cores can keep an answer waiting for
      // seconds; a client that gives up reads the store itself, and the test counts the store's
      // bytes: the bounds here are far above any wait a healthy service takes, so that the count
      // does not depend on how loaded the host is (the fallbacks have their own unit tests)
      site.set("fs.dtap.cnode.connect.timeout", "30s");
      site.set("fs.dtap.cnode.request.timeout", "30s");
      site.set("fs.dtap.cnode.fill.wait", "2m");
      site.set("fs.dtap.cnode.fill.lease", "1m"); // a JVM holding a page's lease fills it once
    }
    try (OutputStream out = new FileOutputStream(new File(confDir, "core-site.xml"))) {
      site.writeXml(out);
    }
    HdfsCluster cluster = HdfsCluster.launch(dir, confDir, hdfs, true, cnodeSecret != null);
    try {
      // mapred-default.xml and yarn-default.xml load after core-site.xml and would win over the
      // cluster's addresses there: those go where Hadoop reads them last
      for (String file : new String[] {"mapred-site.xml", "yarn-site.xml"}) {
        Files.copy(new File(dir, "cluster-site.xml").toPath(), new File(confDir, file).toPath());
      }
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    site.addResource(new Path(new File(dir, "cluster-site.xml").toURI()));
    return new MapReduceCluster(dir, confDir, hdfs, bucket, cluster, site);
  }

  /**
   * The lines a job wrote, over its {@code part-} files.
   *
   * @param out the job's output directory
   * @return its lines, file after file
   * @throws IOException if the output cannot be read
   */
  List<String> outputLines(String out) throws IOException {
    List<String> lines = new ArrayList<>();
    try (FileSystem fs = FileSystem.newInstance(new Path(out).toUri(), conf())) {
      for (FileStatus st : fs.listStatus(new Path(out))) {
        if (!st.getPath().getName().startsWith("part-")) {
          continue;
        }
        try (BufferedReader r =
            new BufferedReader(
                new InputStreamReader(fs.open(st.getPath()), StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            lines.add(line);
          }
        }
      }
    }
    return lines;
  }

  /**
   * @return a copy of the client configuration, for the test's own reads of the results
   */
  Configuration conf() {
    Configuration c = new Configuration();
    for (Map.Entry<String, String> e : site) {
      c.set(e.getKey(), e.getValue());
    }
    c.setBoolean("fs.dtap.impl.disable.cache", true);
    return c;
  }

  /** A client process: Hadoop's jars, the configuration directory and the dtap-hadoop jar. */
  ChildJvm client(String name) throws IOException {
    List<String> cp = HadoopInstall.classpath(confDir);
    return new ChildJvm(name).classpath(cp).jvmArg("-Xmx512m").jvmArg(ChildJvm.SHORT_LIVED);
  }

  @Override
  public void close() throws IOException {
    process.close();
  }
}
