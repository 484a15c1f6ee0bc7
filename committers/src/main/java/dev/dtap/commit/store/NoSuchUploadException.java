package dev.dtap.commit.store;

import java.io.FileNotFoundException;

/** A multipart upload that is not pending: never started, aborted, or already completed. */
public final class NoSuchUploadException extends FileNotFoundException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message names the store, key and upload id
   */
  public NoSuchUploadException(String message) {
    super(message);
  }
}
