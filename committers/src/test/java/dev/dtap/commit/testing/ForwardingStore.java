package dev.dtap.commit.testing;

import dev.dtap.commit.store.InitiatedUpload;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.ObjectInfo;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.StoreStatistics;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.RemoteIterator;

/** A store that forwards every call, for fakes that change one behaviour. */
public class ForwardingStore implements MultipartStore {
  private final MultipartStore d;

  public ForwardingStore(MultipartStore delegate) {
    this.d = delegate;
  }

  @Override
  public String describe() {
    return d.describe();
  }

  @Override
  public InitiatedUpload initiate(String key) throws IOException {
    return d.initiate(key);
  }

  @Override
  public List<String> pendingUploads(String key) throws IOException {
    return d.pendingUploads(key);
  }

  @Override
  public UploadedPart uploadPart(String key, String uploadId, int partNumber, PartData data)
      throws IOException {
    return d.uploadPart(key, uploadId, partNumber, data);
  }

  @Override
  public String complete(String key, String uploadId, List<UploadedPart> parts) throws IOException {
    return d.complete(key, uploadId, parts);
  }

  @Override
  public boolean abort(String key, String uploadId) throws IOException {
    return d.abort(key, uploadId);
  }

  @Override
  public Optional<List<UploadedPart>> listParts(String key, String uploadId) throws IOException {
    return d.listParts(key, uploadId);
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    d.put(key, data);
  }

  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    return d.putIfAbsent(key, data);
  }

  @Override
  public boolean supportsConditionalPut() {
    return d.supportsConditionalPut();
  }

  @Override
  public Optional<byte[]> get(String key) throws IOException {
    return d.get(key);
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    return d.head(key);
  }

  @Override
  public RemoteIterator<ObjectInfo> list(String prefix) throws IOException {
    return d.list(prefix);
  }

  @Override
  public RemoteIterator<String> listChildPrefixes(String prefix) throws IOException {
    return d.listChildPrefixes(prefix);
  }

  @Override
  public void delete(Collection<String> keys) throws IOException {
    d.delete(keys);
  }

  @Override
  public long minimumPartSize() {
    return d.minimumPartSize();
  }

  @Override
  public StoreStatistics statistics() {
    return d.statistics();
  }

  @Override
  public void close() throws IOException {
    d.close();
  }
}
