package dev.dtap.commit.store;

/**
 * The committers' settings that shape a tap's store, parsed once with the other committer keys (see
 * {@code dev.dtap.commit.config.CommitterConfig}) and handed to {@link
 * MultipartStoreFactory#create}. Immutable and thread-safe.
 */
public final class StoreOptions {
  private final boolean conditionalPut;

  /**
   * @param conditionalPut whether the store honours {@code If-None-Match: *}
   */
  public StoreOptions(boolean conditionalPut) {
    this.conditionalPut = conditionalPut;
  }

  /**
   * @return the defaults: conditional puts
   */
  public static StoreOptions defaults() {
    return new StoreOptions(true);
  }

  public boolean conditionalPut() {
    return conditionalPut;
  }

  @Override
  public String toString() {
    return "StoreOptions{conditionalPut=" + conditionalPut + "}";
  }
}
