package dev.dtap.commit.s3;

import dev.dtap.commit.store.NoSuchUploadException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Turns SDK exceptions into IOExceptions classified where they are thrown, with the operation and
 * the {@code s3a://bucket/key} they concern. Messages carry the store's error code and status but
 * never request headers, so no credential reaches them.
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
    return "NoSuchUpload".equals(code(e)) || (isStatus(e, 404) && !"NoSuchKey".equals(code(e)) && !"NoSuchBucket".equals(code(e)));
  }

  static boolean isMissing(SdkException e) {
    return isStatus(e, 404) && !"NoSuchBucket".equals(code(e));
  }

  static IOException translate(String operation, String where, SdkException e) {
    String base = operation + " " + where + ": ";
    if (e instanceof AbortedException || Thread.currentThread().isInterrupted()) {
      InterruptedIOException x = new InterruptedIOException(base + "interrupted");
      x.initCause(e);
      return x;
    }
    if (!(e instanceof AwsServiceException)) {
      return new IOException(base + e.getMessage(), e);
    }
    AwsServiceException s = (AwsServiceException) e;
    String detail = code(e) + " (HTTP " + s.statusCode() + ")";
    if (s.awsErrorDetails() != null && s.awsErrorDetails().errorMessage() != null) {
      detail += ": " + s.awsErrorDetails().errorMessage();
    }
    if (isNoSuchUpload(e) && operation.contains("upload")) {
      NoSuchUploadException x = new NoSuchUploadException(base + detail);
      x.initCause(e);
      return x;
    }
    if (s.statusCode() == 404) {
      FileNotFoundException x = new FileNotFoundException(base + detail);
      x.initCause(e);
      return x;
    }
    if (s.statusCode() == 403) {
      AccessDeniedException x = new AccessDeniedException(where, null, operation + ": " + detail);
      x.initCause(e);
      return x;
    }
    return new IOException(base + detail, e);
  }
}
