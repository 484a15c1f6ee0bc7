package dev.dtap.commit.s3;

import com.amazonaws.AmazonClientException;
import com.amazonaws.AmazonServiceException;
import java.io.IOException;

/**
 * {@link S3Errors}' classification for the AWS SDK v1 exceptions S3A of Hadoop 3.3 throws: by type
 * and status, never by message text.
 */
final class V1Errors {
  private V1Errors() {}

  static IOException translate(String operation, String where, AmazonClientException e) {
    return translate(operation, where, S3Errors.Subject.OBJECT, e);
  }

  static IOException translate(
      String operation, String where, S3Errors.Subject subject, AmazonClientException e) {
    if (e instanceof AmazonServiceException) {
      AmazonServiceException s = (AmazonServiceException) e;
      String code = s.getErrorCode() == null ? "" : s.getErrorCode();
      return S3Errors.answered(
          operation, where, subject, s.getStatusCode(), code, s.getErrorMessage(), e);
    }
    if (S3Errors.isAuditRefusal(e)) {
      return S3Errors.auditRefusal(operation, where, e);
    }
    if (Thread.currentThread().isInterrupted()) {
      return S3Errors.interrupted(operation, where, e);
    }
    return S3Errors.unanswered(operation, where, e);
  }

  static boolean status(AmazonClientException e, int status) {
    return e instanceof AmazonServiceException
        && ((AmazonServiceException) e).getStatusCode() == status;
  }

  static boolean noSuchUpload(AmazonClientException e) {
    if (!(e instanceof AmazonServiceException)) {
      return false;
    }
    AmazonServiceException s = (AmazonServiceException) e;
    return S3Errors.isNoSuchUpload(
        s.getStatusCode(), s.getErrorCode() == null ? "" : s.getErrorCode());
  }

  static boolean missing(AmazonClientException e) {
    return status(e, 404) && !"NoSuchBucket".equals(((AmazonServiceException) e).getErrorCode());
  }
}
