package dev.dtap.commit.store;

/**
 * A multipart upload the store started, and whether the request that started it was sent more than
 * once. A client that sends an initiate again (its answer was lost, or the connection broke while
 * it waited) may have started an upload of the same key that nobody knows the id of; the committers
 * note such a key, and abort what is pending there once the job has ended. Immutable.
 */
public final class InitiatedUpload {
  private final String uploadId;
  private final boolean resent;

  /**
   * @param uploadId the id the store answered
   * @param resent whether the client sent the initiate more than once
   */
  public InitiatedUpload(String uploadId, boolean resent) {
    this.uploadId = uploadId;
    this.resent = resent;
  }

  /**
   * @return the upload's id
   */
  public String uploadId() {
    return uploadId;
  }

  /**
   * @return whether another upload of the key may have been started by an earlier send of the same
   *     request
   */
  public boolean resent() {
    return resent;
  }

  @Override
  public String toString() {
    return "upload " + uploadId + (resent ? " (initiate sent more than once)" : "");
  }
}
