package dev.dtap.commit.s3;

import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.commit.store.KeyNames;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.MultipartStoreFactory;
import dev.dtap.commit.store.StoreOptions;
import dev.dtap.fs.spi.TapContext;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.util.VersionInfo;

/**
 * Serves taps whose backend is S3A, every request through S3A's own client and request factory: on
 * Hadoop 3.4 and later (AWS SDK v2) {@link S3aV2Store}, on Hadoop 3.3 (AWS SDK v1) {@link
 * S3aV1Store}. The Hadoop line is recognised at run time from S3A's classes, so one jar serves
 * every line; see docs/dependencies.md. Thread-safe.
 */
public final class S3StoreFactory implements MultipartStoreFactory {
  static final String S3A = "org.apache.hadoop.fs.s3a.S3AFileSystem";

  /** Creates the factory; found through {@link java.util.ServiceLoader}. */
  public S3StoreFactory() {}

  @Override
  public boolean serves(TapContext tap) {
    for (Class<?> c = tap.backend().getClass(); c != null; c = c.getSuperclass()) {
      if (c.getName().equals(S3A)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public MultipartStore create(TapContext tap, StoreOptions options) throws IOException {
    FileSystem backend = tap.backend();
    KeyNames names = new KeyNames(tap);
    String tapName = tap.config().name();
    if (S3aV2Access.applies(backend)) {
      return v2(S3aV2Access.bind(backend), names, tapName, options);
    }
    if (S3aV1Access.applies(backend)) {
      S3aV1Access s3a = S3aV1Access.bind(backend);
      refuseClientSideEncryption(s3a.encryptionMethod(), tapName);
      return new S3aV1Store(s3a, names, options.conditionalPut());
    }
    throw new IOException(
        "Tap '"
            + tapName
            + "': the dtap committers do not know this S3A (Hadoop "
            + VersionInfo.getVersion()
            + "); supported: Hadoop 3.3.x, 3.4.x and 3.5.x");
  }

  private static MultipartStore v2(
      S3aV2Access s3a, KeyNames names, String tapName, StoreOptions options) throws IOException {
    refuseClientSideEncryption(s3a.encryptionMethod(), tapName);
    String algorithm;
    try {
      algorithm = s3a.initiate("dtap-probe").build().checksumAlgorithmAsString();
    } catch (PathIOException e) {
      throw new IOException(
          "Tap '"
              + tapName
              + "': S3A refuses multipart uploads (fs.s3a.multipart.uploads.enabled),"
              + " which the dtap committers need: "
              + e.getMessage(),
          e);
    }
    return new S3aV2Store(
        s3a, new ClientUploads(s3a, names, algorithm), names, options.conditionalPut());
  }

  /** S3A's client-side encryption needs whole-object, in-order uploads; the committers cannot. */
  private static void refuseClientSideEncryption(String method, String tapName) throws IOException {
    if (method.startsWith("CSE")) {
      throw new IOException(
          "Tap '"
              + tapName
              + "' uses S3A client-side encryption (fs.s3a.encryption.algorithm="
              + method.replace('_', '-')
              + "), which the dtap committers cannot write; use server-side"
              + " encryption (SSE-S3, SSE-KMS, SSE-C) or "
              + CommitterKeys.NAME.name()
              + "=file");
    }
  }
}
