package dev.dtap.commit;

import dev.dtap.commit.config.CommitterKeys;
import dev.dtap.commit.store.MultipartStore;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;

/**
 * Job setup's check that a store honours conditional writes ({@code If-None-Match: *}), on which
 * exclusive task commit records rely: a store that ignored them would let a second write through
 * silently. Two conditional writes of one probe object: the first must land, the second must be
 * refused.
 *
 * <p>A first write whose answer was lost, and which the client then sent again, meets its own
 * object and is refused (412): the probe's content is unique, so finding it there means the first
 * write landed. Without this, one reset during job setup failed the job (found by the MapReduce
 * fault test). Stateless.
 */
final class ConditionalPutProbe {
  private static final SecureRandom RANDOM = new SecureRandom();

  private ConditionalPutProbe() {}

  /**
   * Checks the store.
   *
   * @param store the tap's store
   * @param probe a key of the job's own, deleted afterwards
   * @param tap the tap's name, for the message
   * @throws IOException if the store does not honour conditional writes (the message names the key
   *     to set), or cannot be asked
   */
  static void check(MultipartStore store, String probe, String tap) throws IOException {
    byte[] data = new byte[16];
    RANDOM.nextBytes(data);
    boolean first;
    boolean second;
    try {
      first =
          store.putIfAbsent(probe, data)
              || store.get(probe).map(b -> Arrays.equals(b, data)).orElse(false);
      second = store.putIfAbsent(probe, data);
    } catch (IOException | RuntimeException e) {
      deleteAfterFailure(store, probe, e);
      throw e;
    }
    // best effort: a probe left behind sits in the job's own directory, which commit and abort
    // remove; a failed delete must not fail the setup of a job on a healthy store
    deleteAfterFailure(store, probe, null);
    if (second) {
      throw new IOException(
          "The store of tap '"
              + tap
              + "' does not honour conditional writes (If-None-Match: *): it wrote an object"
              + " over an existing one; set "
              + CommitterKeys.CONDITIONAL_PUT.name()
              + "=false, and task commits will be last-writer-wins");
    }
    if (!first) {
      throw new IOException(
          "The store of tap '"
              + tap
              + "' refused a conditional write (If-None-Match: *) of a new object in job setup:"
              + " another write to it may still have been in progress; run the job again, and if"
              + " this persists the store does not honour conditional writes: set "
              + CommitterKeys.CONDITIONAL_PUT.name()
              + "=false, and task commits will be last-writer-wins");
    }
  }

  /** Deletes the probe; a failure is added to {@code cause} when there is one, else dropped. */
  private static void deleteAfterFailure(MultipartStore store, String probe, Throwable cause) {
    try {
      store.delete(List.of(probe));
    } catch (IOException | RuntimeException e) {
      if (cause != null) {
        cause.addSuppressed(e);
      }
    }
  }
}
