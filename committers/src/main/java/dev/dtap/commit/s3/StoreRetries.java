package dev.dtap.commit.s3;

import dev.dtap.commit.store.StoreStatistics.Op;
import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.s3a.Invoker;
import org.apache.hadoop.fs.s3a.S3ARetryPolicy;
import org.apache.hadoop.util.functional.CallableRaisingIOE;

/**
 * Retries the store's idempotent requests (listing pages, HEAD, GET, listing parts, bulk delete) as
 * S3A retries its own: S3A's {@link Invoker} with an {@link S3ARetryPolicy} built from the tap's
 * configuration ({@code fs.s3a.retry.limit}, {@code fs.s3a.retry.interval}, the throttle settings).
 * The SDK client has already retried what it retries ({@code fs.s3a.attempts.maximum}); what it
 * gives up on, such as an answer whose connection closed part-way through its body ("Could not
 * parse XML response"), S3A retries for idempotent calls, and so does this. Classification is by
 * type, as S3A's: our {@link S3Errors} yields {@code FileNotFoundException} and {@code
 * AccessDeniedException} for answers no retry changes, which the policy fails at once.
 *
 * <p>One audit span ({@link S3aSpans}) covers a request and its retries, as an S3A operation's
 * does.
 *
 * <p>Thread-safe. Messages and retry logs name the operation and the dtap path only.
 */
final class StoreRetries {
  private final Invoker invoker;
  private final S3aSpans spans;

  /**
   * @param conf the tap's S3A configuration
   * @param spans the audit spans the requests run in
   */
  StoreRetries(Configuration conf, S3aSpans spans) {
    this.invoker = new Invoker(new S3ARetryPolicy(conf), Invoker.LOG_EVENT);
    this.spans = spans;
  }

  /**
   * Runs an idempotent request in one audit span, retrying it by S3A's policy.
   *
   * @param op what is asked, which names the span and the retry logs
   * @param key the key or prefix it concerns, for the span
   * @param where the dtap path it concerns, for messages and logs
   * @param call the request, throwing classified IOExceptions
   * @param <T> its result
   * @return its result
   * @throws IOException the last failure, once the policy gives up or on one it does not retry
   */
  <T> T idempotent(Op op, String key, String where, CallableRaisingIOE<T> call) throws IOException {
    String operation = op.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    return spans.run(op, key, () -> invoker.retry(operation, where, true, call));
  }
}
