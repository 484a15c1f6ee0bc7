package dev.dtap.commit.store;

/**
 * The committers' settings that shape a tap's store, parsed once with the other committer keys (see
 * {@code dev.dtap.commit.CommitterConfig}) and handed to {@link MultipartStoreFactory#create}.
 * Immutable and thread-safe.
 */
public final class StoreOptions {
  /** How the requests made for every file (initiate, part, complete, small puts) travel. */
  public enum Transport {
    /**
     * {@link #HTTP} when the tap's settings allow it (S3A 3.4 or later, no setting it cannot
     * reproduce exactly), else {@link #S3A}.
     */
    AUTO,
    /**
     * The JDK's HTTP client, requests built by S3A's request factory and signed by the AWS SDK's
     * SigV4 signer; a tap whose settings need more fails at initialize, naming the key.
     */
    HTTP,
    /** S3A's own S3 client for every request. */
    S3A
  }

  private final boolean conditionalPut;
  private final boolean signedPayload;
  private final Transport transport;

  /**
   * @param conditionalPut whether the store honours {@code If-None-Match: *}
   * @param signedPayload whether part payloads over plain http carry a SigV4 payload signature
   * @param transport how the per-file requests travel
   */
  public StoreOptions(boolean conditionalPut, boolean signedPayload, Transport transport) {
    this.conditionalPut = conditionalPut;
    this.signedPayload = signedPayload;
    this.transport = transport;
  }

  /**
   * @return the defaults: conditional puts, signed payloads, {@link Transport#AUTO}
   */
  public static StoreOptions defaults() {
    return new StoreOptions(true, true, Transport.AUTO);
  }

  public boolean conditionalPut() {
    return conditionalPut;
  }

  public boolean signedPayload() {
    return signedPayload;
  }

  public Transport transport() {
    return transport;
  }

  @Override
  public String toString() {
    return "StoreOptions{conditionalPut="
        + conditionalPut
        + ", signedPayload="
        + signedPayload
        + ", transport="
        + transport
        + "}";
  }
}
