package dev.dtap.e2e;

import dev.dtap.it.fixtures.ShapingProxy;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code --remote [LATENCYms,MBITS]} option of the demos: a shaping proxy in front of the store
 * that models a remote one over a shared network. Immutable.
 */
final class RemoteOption {
  /** What {@code --remote} alone means: 2 ms per request, 1 Gbit/s. */
  static final String DEFAULT = "2ms,1000";

  private final Duration latency;
  private final long mbits;

  private RemoteOption(Duration latency, long mbits) {
    this.latency = latency;
    this.mbits = mbits;
  }

  /**
   * @param spec {@code LATENCYms,MBITS}, e.g. {@code 2ms,1000}
   * @return the option
   * @throws IllegalArgumentException if the text is not of that form
   */
  static RemoteOption parse(String spec) {
    String[] parts = spec.split(",");
    try {
      if (parts.length == 2) {
        Duration latency = Duration.ofMillis(Long.parseLong(parts[0].replace("ms", "").trim()));
        long mbits = Long.parseLong(parts[1].trim());
        if (!latency.isNegative() && mbits > 0) {
          return new RemoteOption(latency, mbits);
        }
      }
    } catch (NumberFormatException e) {
      // reported below with the expected form
    }
    throw new IllegalArgumentException(
        "--remote takes LATENCYms,MBITS (e.g. " + DEFAULT + "), not " + spec);
  }

  /**
   * Starts the proxy.
   *
   * @param store the store's endpoint
   * @return the proxy; the caller closes it
   * @throws IOException if it cannot listen
   */
  ShapingProxy start(URI store) throws IOException {
    return ShapingProxy.start(store, latency, mbits * 1_000_000L);
  }

  /**
   * @return the shape, for a report
   */
  Map<String, Object> describe() {
    Map<String, Object> shape = new LinkedHashMap<>();
    shape.put("latency_ms", latency.toMillis());
    shape.put("mbit_per_second", mbits);
    return shape;
  }

  @Override
  public String toString() {
    return latency.toMillis() + " ms per request, " + mbits + " Mbit/s";
  }
}
