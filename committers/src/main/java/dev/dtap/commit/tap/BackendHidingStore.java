package dev.dtap.commit.tap;

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
import java.util.function.UnaryOperator;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * A tap's store whose every failure is rewritten by the tap ({@code TapContext.hideBackend}) before
 * the committers see it: the store's own messages name dtap paths, but the client exceptions they
 * carry as causes name the endpoint, the bucket's virtual host or its ARN. The class of each
 * exception is kept, so the committers' classification ({@code NoSuchUploadException}, access
 * denied) holds. Thread-safe if the store is.
 */
public final class BackendHidingStore implements MultipartStore {
  private final MultipartStore store;
  private final UnaryOperator<IOException> hide;

  BackendHidingStore(MultipartStore store, UnaryOperator<IOException> hide) {
    this.store = store;
    this.hide = hide;
  }

  /** The store as its factory made it, for tests that look into one implementation. */
  public MultipartStore delegate() {
    return store;
  }

  @Override
  public String describe() {
    return store.describe();
  }

  @Override
  public InitiatedUpload initiate(String key) throws IOException {
    return hidden(() -> store.initiate(key));
  }

  @Override
  public List<String> pendingUploads(String key) throws IOException {
    return hidden(() -> store.pendingUploads(key));
  }

  @Override
  public UploadedPart uploadPart(String key, String uploadId, int partNumber, PartData data)
      throws IOException {
    return hidden(() -> store.uploadPart(key, uploadId, partNumber, data));
  }

  @Override
  public String complete(String key, String uploadId, List<UploadedPart> parts) throws IOException {
    return hidden(() -> store.complete(key, uploadId, parts));
  }

  @Override
  public boolean abort(String key, String uploadId) throws IOException {
    return hidden(() -> store.abort(key, uploadId));
  }

  @Override
  public Optional<List<UploadedPart>> listParts(String key, String uploadId) throws IOException {
    return hidden(() -> store.listParts(key, uploadId));
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    hidden(
        () -> {
          store.put(key, data);
          return null;
        });
  }

  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    return hidden(() -> store.putIfAbsent(key, data));
  }

  @Override
  public boolean supportsConditionalPut() {
    return store.supportsConditionalPut();
  }

  @Override
  public Optional<byte[]> get(String key) throws IOException {
    return hidden(() -> store.get(key));
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    return hidden(() -> store.head(key));
  }

  @Override
  public RemoteIterator<ObjectInfo> list(String prefix) throws IOException {
    return hidden(() -> new Hiding<>(store.list(prefix)));
  }

  @Override
  public RemoteIterator<String> listChildPrefixes(String prefix) throws IOException {
    return hidden(() -> new Hiding<>(store.listChildPrefixes(prefix)));
  }

  @Override
  public void delete(Collection<String> keys) throws IOException {
    hidden(
        () -> {
          store.delete(keys);
          return null;
        });
  }

  @Override
  public long minimumPartSize() {
    return store.minimumPartSize();
  }

  @Override
  public StoreStatistics statistics() {
    return store.statistics();
  }

  @Override
  public void close() throws IOException {
    hidden(
        () -> {
          store.close();
          return null;
        });
  }

  @Override
  public String toString() {
    return store.toString();
  }

  /** Runs a request of the store, its failure rewritten. */
  private <T> T hidden(AuditContext.StoreCall<T> request) throws IOException {
    try {
      return request.call();
    } catch (IOException e) {
      throw hide.apply(e);
    }
  }

  /** A listing whose later pages fail as the first one would. */
  private final class Hiding<T> implements RemoteIterator<T> {
    private final RemoteIterator<T> listing;

    Hiding(RemoteIterator<T> listing) {
      this.listing = listing;
    }

    @Override
    public boolean hasNext() throws IOException {
      return hidden(listing::hasNext);
    }

    @Override
    public T next() throws IOException {
      return hidden(listing::next);
    }
  }
}
