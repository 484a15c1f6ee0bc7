package dev.dtap.commit.tap;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs requests that must not be cut short (cleanup, and an initiate with its journal entry) to
 * their end for a thread that was, or gets, interrupted. An engine kills a task attempt by
 * interrupting its thread, as often as it likes (Spark interrupts once when another attempt of a
 * speculative task succeeds and again when the stage ends), and S3A's client refuses every request
 * of an interrupted thread: the aborts meant to clean up after the attempt would fail and leave its
 * uploads pending, one of them known to no journal. So the cleanup runs on a thread of its own,
 * which nobody interrupts, carrying the caller's audit ids; the caller waits for it (its requests
 * are bounded by the tap's request timeouts) and gets its interrupt flag back.
 *
 * <p>Thread-safe.
 */
public final class Uninterrupted {
  /** Threads no engine knows of; idle ones end after a minute. */
  private static final Executor OWN_THREAD =
      AuditContext.carrying(
          new ThreadPoolExecutor(
              0,
              Integer.MAX_VALUE,
              60,
              TimeUnit.SECONDS,
              new SynchronousQueue<>(),
              work -> {
                Thread t = new Thread(work, "dtap-uninterrupted");
                t.setDaemon(true);
                return t;
              }));

  private Uninterrupted() {}

  /**
   * Runs cleanup on a thread no engine interrupts and waits for it.
   *
   * @param cleanup the requests
   * @param <T> what they return
   * @return what they returned
   * @throws IOException what they throw
   */
  public static <T> T call(AuditContext.StoreCall<T> cleanup) throws IOException {
    CompletableFuture<T> done = new CompletableFuture<>();
    OWN_THREAD.execute(
        () -> {
          try {
            done.complete(cleanup.call());
          } catch (IOException | RuntimeException | Error e) {
            done.completeExceptionally(e);
          }
        });
    try {
      // join() waits through interrupts and sets the caller's flag again afterwards
      return done.join();
    } catch (CompletionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException) {
        throw (IOException) c;
      }
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      throw (Error) c;
    }
  }
}
