package dev.dtap.commit.tap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.dtap.commit.store.InitiatedUpload;
import dev.dtap.commit.store.MultipartStore;
import dev.dtap.commit.store.ObjectInfo;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.UploadedPart;
import dev.dtap.commit.testing.ForwardingStore;
import java.io.IOException;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.RemoteIterator;
import org.junit.jupiter.api.Test;

class TestBackendHidingStore {
  /** Every request fails with an error naming the endpoint; listings fail on their next page. */
  private final MultipartStore failing =
      new ForwardingStore(null) {
        @Override
        public InitiatedUpload initiate(String key) throws IOException {
          throw leak();
        }

        @Override
        public UploadedPart uploadPart(String key, String id, int n, PartData data)
            throws IOException {
          throw leak();
        }

        @Override
        public String complete(String key, String id, List<UploadedPart> parts) throws IOException {
          throw leak();
        }

        @Override
        public boolean abort(String key, String id) throws IOException {
          throw leak();
        }

        @Override
        public Optional<List<UploadedPart>> listParts(String key, String id) throws IOException {
          throw leak();
        }

        @Override
        public void put(String key, byte[] data) throws IOException {
          throw leak();
        }

        @Override
        public boolean putIfAbsent(String key, byte[] data) throws IOException {
          throw leak();
        }

        @Override
        public Optional<byte[]> get(String key) throws IOException {
          throw leak();
        }

        @Override
        public Optional<ObjectInfo> head(String key) throws IOException {
          throw leak();
        }

        @Override
        public RemoteIterator<ObjectInfo> list(String prefix) {
          return failingListing();
        }

        @Override
        public RemoteIterator<String> listChildPrefixes(String prefix) {
          return failingListing();
        }

        @Override
        public void delete(Collection<String> keys) throws IOException {
          throw leak();
        }
      };

  private static IOException leak() {
    return new IOException("Connect to minio.internal:9000 failed");
  }

  private static <T> RemoteIterator<T> failingListing() {
    return new RemoteIterator<T>() {
      @Override
      public boolean hasNext() throws IOException {
        throw leak();
      }

      @Override
      public T next() throws IOException {
        throw leak();
      }
    };
  }

  private interface Call {
    void run(MultipartStore store) throws IOException;
  }

  @Test
  void everyFailureReachesTheCommittersThroughTheTapsRewriting() {
    MultipartStore hiding =
        new BackendHidingStore(failing, e -> new IOException("hidden: tap 'lake'", e));
    PartData none = PartData.of(Collections.emptyList(), 0);
    Call[] calls = {
      s -> s.initiate("k"),
      s -> s.uploadPart("k", "u", 1, none),
      s -> s.complete("k", "u", Collections.emptyList()),
      s -> s.abort("k", "u"),
      s -> s.listParts("k", "u"),
      s -> s.put("k", new byte[0]),
      s -> s.putIfAbsent("k", new byte[0]),
      s -> s.get("k"),
      s -> s.head("k"),
      s -> s.list("p").hasNext(),
      s -> s.list("p").next(),
      s -> s.listChildPrefixes("p").hasNext(),
      s -> s.listChildPrefixes("p").next(),
      s -> s.delete(Collections.singletonList("k")),
    };
    for (int i = 0; i < calls.length; i++) {
      Call call = calls[i];
      assertThat(catchThrowable(() -> call.run(hiding)))
          .as("call %d", i)
          .hasMessage("hidden: tap 'lake'");
    }
  }
}
