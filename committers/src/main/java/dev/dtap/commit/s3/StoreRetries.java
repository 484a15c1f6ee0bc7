package dev.dtap.commit.s3;

import java.io.IOException;
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
 * <p>Thread-safe. Messages and retry logs name the operation and the dtap path only.
 */
final class StoreRetries {
  private final Invoker invoker;

  /**
   * @param conf the tap's S3A configuration
   */
  StoreRetries(Configuration conf) {
    this.invoker = new Invoker(new S3ARetryPolicy(conf), Invoker.LOG_EVENT);
  }

  /**
   * Runs an idempotent request, retrying it by S3A's policy.
   *
   * @param operation what is asked, for logs
   * @param where the dtap path it concerns
   * @param call the request, throwing classified IOExceptions
   * @param <T> its result
   * @return its result
   * @throws IOException the last failure, once the policy gives up or on one it does not retry
   */
  <T> T idempotent(String operation, String where, CallableRaisingIOE<T> call) throws IOException {
    return invoker.retry(operation, where, true, call);
  }
}
