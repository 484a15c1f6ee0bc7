package dev.dtap.commit.s3;

import dev.dtap.commit.store.NoSuchUploadException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import org.apache.hadoop.fs.s3a.audit.AuditFailureException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Turns the store's answers and the SDK's exceptions into IOExceptions classified where they are
 * thrown, naming the operation and the dtap path they concern (never the bucket or endpoint).
 * Messages carry the store's error code, status and message but never request headers, so no
 * credential reaches them.
 */
final class S3Errors {
  private S3Errors() {}

  static boolean isStatus(SdkException e, int status) {
    return e instanceof AwsServiceException && ((AwsServiceException) e).statusCode() == status;
  }

  static String code(SdkException e) {
    if (e instanceof AwsServiceException && ((AwsServiceException) e).awsErrorDetails() != null) {
      String c = ((AwsServiceException) e).awsErrorDetails().errorCode();
      return c == null ? "" : c;
    }
    return "";
  }

  static boolean isNoSuchUpload(SdkException e) {
    return e instanceof AwsServiceException
        && isNoSuchUpload(((AwsServiceException) e).statusCode(), code(e));
  }

  /**
   * @param status the HTTP status of the store's answer
   * @param code the store's error code, or ""
   * @return whether the answer says the upload does not exist (completed, aborted or never there)
   */
  static boolean isNoSuchUpload(int status, String code) {
    return "NoSuchUpload".equals(code)
        || (status == 404 && !"NoSuchKey".equals(code) && !"NoSuchBucket".equals(code));
  }

  /**
   * Whether a complete's failure says the upload is no longer there to complete. A complete whose
   * first answer was lost, and that the client sent again, finds the upload it already completed
   * gone: S3 answers {@code NoSuchUpload}, MinIO {@code InvalidPart} (the parts became the object).
   * The caller then looks at the object to tell its own result from another writer's.
   *
   * @param status the HTTP status of the store's answer
   * @param code the store's error code, or ""
   * @return whether the failure is to be reported as a {@link NoSuchUploadException}
   */
  static boolean isGoneAtComplete(int status, String code) {
    return isNoSuchUpload(status, code) || "InvalidPart".equals(code);
  }

  /**
   * What a request names, which decides whether a "not found" answer means its upload is gone.
   * Chosen by the caller, never read from the operation's text.
   */
  enum Subject {
    /** An object, a listing or an initiate: a 404 is a missing object or bucket. */
    OBJECT,
    /** An existing upload (a part, an abort, its parts' listing): see {@link #isNoSuchUpload}. */
    UPLOAD,
    /** A complete: as {@link #UPLOAD}, and see {@link #isGoneAtComplete}. */
    COMPLETE;

    boolean gone(int status, String code) {
      switch (this) {
        case UPLOAD:
          return isNoSuchUpload(status, code);
        case COMPLETE:
          return isGoneAtComplete(status, code);
        default:
          return false;
      }
    }
  }

  static boolean isMissing(SdkException e) {
    return isStatus(e, 404) && !"NoSuchBucket".equals(code(e));
  }

  /**
   * A failure before the store answered in full (connect, DNS, TLS, timeout, a cut answer): the
   * client's text may name the endpoint, so the message tells only the failure's kind; the cause
   * keeps the rest.
   *
   * @param operation what was asked
   * @param where the dtap path it concerned
   * @param e the client's exception
   * @return a plain IOException, which S3A's retry policy retries for idempotent requests
   */
  static IOException unanswered(String operation, String where, Exception e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return new IOException(
        operation
            + " "
            + where
            + ": no complete answer from the store ("
            + root.getClass().getSimpleName()
            + ")",
        e);
  }

  /**
   * Whether S3A's auditor refused a request before it was sent (an auditor of the user's, or S3A's
   * with {@code fs.s3a.audit.reject.out.of.span.operations}). Typed {@code Throwable}: the
   * exception extends the SDK v1 hierarchy on Hadoop 3.3 and the v2 one later.
   *
   * @param e a client's exception
   * @return whether it, or an exception it wraps, is S3A's audit refusal
   */
  static boolean isAuditRefusal(Throwable e) {
    // the SDK may wrap what an execution interceptor threw; a bounded walk guards against cycles
    Throwable t = e;
    for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
      if (t instanceof AuditFailureException) {
        return true;
      }
    }
    return false;
  }

  /**
   * The exception for a request S3A's auditor refused: access denied, never retried. S3A itself
   * reports most audit failures as access denied, and an operation rejected outside a span as an
   * unsupported request; to a committer both mean the tap's settings forbid the request.
   *
   * @param operation what was asked
   * @param where the dtap path it concerned
   * @param e the auditor's exception
   * @return the exception
   */
  static IOException auditRefusal(String operation, String where, Exception e) {
    AccessDeniedException denied =
        new AccessDeniedException(
            where, null, operation + ": refused by S3A's auditor (fs.s3a.audit.*)");
    denied.initCause(e);
    return denied;
  }

  static IOException translate(String operation, String where, SdkException e) {
    return translate(operation, where, Subject.OBJECT, e);
  }

  static IOException translate(String operation, String where, Subject subject, SdkException e) {
    if (isAuditRefusal(e)) {
      return auditRefusal(operation, where, e);
    }
    if (e instanceof AbortedException || Thread.currentThread().isInterrupted()) {
      return interrupted(operation, where, e);
    }
    if (!(e instanceof AwsServiceException)) {
      return unanswered(operation, where, e);
    }
    AwsServiceException s = (AwsServiceException) e;
    String message = s.awsErrorDetails() == null ? null : s.awsErrorDetails().errorMessage();
    return answered(operation, where, subject, s.statusCode(), code(e), message, e);
  }

  /**
   * The exception for a failure the SDK throws unchecked: its XML parser reports a body that ended
   * early (a connection closed part-way through the answer) as an {@link UncheckedIOException},
   * outside its own exception hierarchy.
   *
   * @param operation what was asked
   * @param where the dtap path it concerned
   * @param e the SDK's exception
   * @return a plain IOException, which S3A's retry policy retries for idempotent requests
   */
  static IOException translate(String operation, String where, UncheckedIOException e) {
    return unanswered(operation, where, e.getCause());
  }

  static InterruptedIOException interrupted(String operation, String where, Throwable cause) {
    InterruptedIOException x =
        new InterruptedIOException(operation + " " + where + ": interrupted");
    x.initCause(cause);
    return x;
  }

  /**
   * The exception for an error answer of the store.
   *
   * @param operation what was asked, for the message
   * @param where the dtap path it concerned
   * @param subject what the request named
   * @param status the HTTP status
   * @param code the store's error code, or ""
   * @param message the store's error message, or null
   * @param cause the exception that carried the answer, or null
   * @return {@link NoSuchUploadException} where the subject's upload is gone, {@link
   *     FileNotFoundException} for another 404, {@link AccessDeniedException} for 403, else a plain
   *     IOException
   */
  static IOException answered(
      String operation,
      String where,
      Subject subject,
      int status,
      String code,
      String message,
      Throwable cause) {
    String base = operation + " " + where + ": ";
    String detail = code + " (HTTP " + status + ")";
    if (message != null) {
      detail += ": " + message;
    }
    IOException x;
    if (subject.gone(status, code)) {
      x = new NoSuchUploadException(base + detail);
    } else if (status == 404) {
      x = new FileNotFoundException(base + detail);
    } else if (status == 403) {
      x = new AccessDeniedException(where, null, operation + ": " + detail);
    } else {
      x = new IOException(base + detail);
    }
    if (cause != null) {
      x.initCause(cause);
    }
    return x;
  }
}
