package dev.dtap.commit.s3;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.awscore.AwsRequest;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.protocol.MarshallLocation;
import software.amazon.awssdk.core.traits.TimestampFormatTrait;

/**
 * The HTTP headers of a request S3A's request factory built, read from the SDK's own description of
 * the request's fields ({@link SdkField}: where each field goes and under which name), plus the
 * headers S3A adds to the request's and the client's override configuration (conditional writes,
 * requester-pays). So every setting S3A puts on a request (encryption, ACL, storage class,
 * checksums, content encoding, metadata, and whatever a later S3A adds as a header field) reaches
 * the wire as the SDK would send it.
 *
 * <p>Headers the HTTP client sets itself ({@code Content-Length}, {@code Host}) are left out. A
 * field value of a type the SDK would not put in a header is refused with {@link
 * IllegalArgumentException}, naming the field, rather than dropped. Stateless.
 */
final class RequestHeaders {
  /** Set by the HTTP client from the body and the URI; it refuses them from callers. */
  private static final List<String> CLIENT_SET =
      List.of("content-length", "host", "expect", "connection");

  private static final DateTimeFormatter RFC_822 =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private RequestHeaders() {}

  /**
   * The headers of a request.
   *
   * @param request the request, as S3A's request factory built it
   * @param clientHeaders the S3 client's own headers (its override configuration), for every
   *     request
   * @return header names (lower case) to values, sorted by name
   * @throws IllegalArgumentException if a header field holds a value the SDK would not marshal
   */
  static Map<String, List<String>> of(AwsRequest request, Map<String, List<String>> clientHeaders) {
    Map<String, List<String>> h = new TreeMap<>();
    clientHeaders.forEach((k, v) -> put(h, k, v));
    Optional<AwsRequestOverrideConfiguration> o = request.overrideConfiguration();
    o.ifPresent(c -> c.headers().forEach((k, v) -> put(h, k, v)));
    for (SdkField<?> f : request.sdkFields()) {
      if (f.location() != MarshallLocation.HEADER) {
        continue;
      }
      Object value = f.getValueOrDefault(request);
      if (value == null) {
        continue;
      }
      String name = f.locationName();
      if (value instanceof Map) {
        // user metadata: the field's name is the prefix (x-amz-meta-)
        for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
          put(h, name + e.getKey(), List.of(String.valueOf(e.getValue())));
        }
        continue;
      }
      put(h, name, List.of(text(f, value)));
    }
    for (String s : CLIENT_SET) {
      h.remove(s);
    }
    return h;
  }

  private static String text(SdkField<?> f, Object value) {
    if (value instanceof String || value instanceof Boolean || value instanceof Number) {
      return value.toString();
    }
    if (value instanceof Instant) {
      TimestampFormatTrait.Format format =
          f.getOptionalTrait(TimestampFormatTrait.class)
              .map(TimestampFormatTrait::format)
              .orElse(TimestampFormatTrait.Format.RFC_822);
      if (format == TimestampFormatTrait.Format.ISO_8601) {
        return DateTimeFormatter.ISO_INSTANT.format((Instant) value);
      }
      if (format == TimestampFormatTrait.Format.RFC_822) {
        return RFC_822.format((Instant) value);
      }
    }
    if (value instanceof Collection) {
      List<String> parts = new ArrayList<>();
      for (Object x : (Collection<?>) value) {
        parts.add(String.valueOf(x));
      }
      return String.join(",", parts);
    }
    throw new IllegalArgumentException(
        "S3A set "
            + f.memberName()
            + " (header "
            + f.locationName()
            + ") to a "
            + value.getClass().getSimpleName()
            + ", which dtap's HTTP requests cannot send");
  }

  private static void put(Map<String, List<String>> h, String name, List<String> values) {
    h.put(name.toLowerCase(Locale.ROOT), Collections.unmodifiableList(new ArrayList<>(values)));
  }
}
