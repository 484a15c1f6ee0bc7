package dev.dtap.commit.s3;

import dev.dtap.commit.store.StoreStatistics.Op;
import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.store.audit.AuditSpan;
import org.apache.hadoop.fs.store.audit.AuditSpanSource;
import org.apache.hadoop.util.functional.CallableRaisingIOE;

/**
 * Runs each request the committers send through S3A's client inside an audit span of the tap's S3A,
 * as S3A runs its own operations. Two things depend on it. S3A's auditor refuses requests made
 * outside any span when {@code fs.s3a.audit.reject.out.of.span.operations} is set, so without spans
 * no commit could run on such a tap. And outside a span, every thread shares S3A's one "unbonded"
 * span, whose referrer header S3A 3.3.6 edits and reads per request without a lock: two committer
 * threads sending at once made it throw {@code ConcurrentModificationException} (a bulk delete
 * setting its key count while a HEAD built its header). A span per request belongs to one thread
 * only. The span is named {@code dtap_committer_<operation>} and carries the object key, which S3A
 * sends in the request's referrer header for the store's audit log. S3A of Hadoop 3.3 (SDK v1)
 * binds a request to the span active when its request factory builds it, so requests are built
 * inside {@link #run} as well as sent there.
 *
 * <p>Thread-safe: a span is made, activated and closed on the calling thread.
 */
final class S3aSpans {
  private static final String PREFIX = "dtap_committer_";

  /** Null only for a filesystem that is no span source (a test's); every supported S3A is one. */
  private final AuditSpanSource<?> source;

  /**
   * @param source the auditor's span source, or null to run without spans
   */
  S3aSpans(AuditSpanSource<?> source) {
    this.source = source;
  }

  /**
   * @param s3a the tap's S3A filesystem
   * @return spans of its auditor
   */
  static S3aSpans of(FileSystem s3a) {
    return new S3aSpans(s3a instanceof AuditSpanSource ? (AuditSpanSource<?>) s3a : null);
  }

  /**
   * Runs one operation inside a new span of S3A's auditor, active on this thread until it returns.
   *
   * @param op the operation, which names the span
   * @param key the object key or prefix it concerns
   * @param call the operation
   * @param <T> its result
   * @return its result
   * @throws IOException what the operation throws, or S3A's refusal to open a span
   */
  <T> T run(Op op, String key, CallableRaisingIOE<T> call) throws IOException {
    if (source == null) {
      return call.apply();
    }
    try (AuditSpan span = source.createSpan(name(op), key, null)) {
      return call.apply();
    }
  }

  static String name(Op op) {
    return PREFIX + op.name().toLowerCase(Locale.ROOT);
  }
}
