package dev.dtap.commit.store;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Requests a store has sent, by operation, and the bytes it uploaded. Thread-safe; counters only
 * grow.
 */
public final class StoreStatistics {
  /** The operations counted, one request each (a listing counts one per page). */
  public enum Op {
    INITIATE,
    UPLOAD_PART,
    COMPLETE,
    ABORT,
    LIST_PARTS,
    LIST_UPLOADS,
    PUT,
    GET,
    HEAD,
    LIST,
    DELETE
  }

  private final AtomicLongArray requests = new AtomicLongArray(Op.values().length);
  private final AtomicLongArray bytes = new AtomicLongArray(1);

  /**
   * Counts one request.
   *
   * @param op the operation
   */
  public void request(Op op) {
    requests.incrementAndGet(op.ordinal());
  }

  /**
   * Counts uploaded bytes.
   *
   * @param n the bytes
   */
  public void uploaded(long n) {
    bytes.addAndGet(0, n);
  }

  /**
   * @param op an operation
   * @return requests of that operation so far
   */
  public long requests(Op op) {
    return requests.get(op.ordinal());
  }

  /**
   * @return all requests so far
   */
  public long totalRequests() {
    long sum = 0;
    for (int i = 0; i < requests.length(); i++) {
      sum += requests.get(i);
    }
    return sum;
  }

  /**
   * @return bytes uploaded in parts and small objects so far
   */
  public long bytesUploaded() {
    return bytes.get(0);
  }

  /**
   * @return a copy of the request counters
   */
  public Map<Op, Long> snapshot() {
    Map<Op, Long> m = new EnumMap<>(Op.class);
    for (Op op : Op.values()) {
      m.put(op, requests(op));
    }
    return m;
  }
}
