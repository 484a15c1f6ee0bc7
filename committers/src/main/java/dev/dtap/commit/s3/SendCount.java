package dev.dtap.commit.s3;

import java.util.List;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;

/**
 * Learns whether the AWS SDK sent one request more than once, from the metrics of its call. Given
 * to a single request, it takes the place of the client's metric publishers for that request (the
 * SDK uses a request's publishers instead of the client's), so it hands every collection on to them
 * and S3A's statistics still see the request. The SDK publishes a call's metrics before the call
 * returns. Thread-safe; never closes the client's publishers.
 */
final class SendCount implements MetricPublisher {
  private final List<MetricPublisher> clients;
  private volatile boolean resent;

  /**
   * @param clients the client's own publishers, which keep receiving the request's metrics
   */
  SendCount(List<MetricPublisher> clients) {
    this.clients = clients;
  }

  @Override
  public void publish(MetricCollection metrics) {
    for (Integer retries : metrics.metricValues(CoreMetric.RETRY_COUNT)) {
      if (retries != null && retries > 0) {
        resent = true;
      }
    }
    for (MetricPublisher p : clients) {
      p.publish(metrics);
    }
  }

  /**
   * @return whether the request was sent more than once
   */
  boolean resent() {
    return resent;
  }

  @Override
  public void close() {
    // the client's publishers are S3A's
  }
}
