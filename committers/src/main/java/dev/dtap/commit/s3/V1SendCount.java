package dev.dtap.commit.s3;

import com.amazonaws.Request;
import com.amazonaws.Response;
import com.amazonaws.metrics.RequestMetricCollector;
import com.amazonaws.util.AWSRequestMetrics;

/**
 * Learns whether the AWS SDK v1 sent one request more than once, from the request's metrics: the
 * SDK counts each send ({@code RequestCount}) and hands the metrics to the request's collector when
 * the call ends, before it returns. Given to a single request it takes the place of the client's
 * collector for that request, so it hands the metrics on to that one and S3A's statistics still see
 * the request. Thread-safe.
 */
final class V1SendCount extends RequestMetricCollector {
  private final RequestMetricCollector client;
  private volatile boolean resent;

  /**
   * @param client the client's own collector, or null
   */
  V1SendCount(RequestMetricCollector client) {
    this.client = client;
  }

  @Override
  public void collectMetrics(Request<?> request, Response<?> response) {
    AWSRequestMetrics metrics = request.getAWSRequestMetrics();
    if (metrics != null) {
      Number sends =
          metrics.getTimingInfo().getCounter(AWSRequestMetrics.Field.RequestCount.name());
      if (sends != null && sends.intValue() > 1) {
        resent = true;
      }
    }
    if (client != null && client.isEnabled()) {
      client.collectMetrics(request, response);
    }
  }

  /**
   * @return whether the request was sent more than once
   */
  boolean resent() {
    return resent;
  }
}
