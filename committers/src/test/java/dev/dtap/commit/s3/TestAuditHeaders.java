package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.apache.hadoop.fs.s3a.audit.AuditFailureException;
import org.apache.hadoop.fs.store.audit.AuditSpan;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

class TestAuditHeaders {
  private static final URI URI_OF_KEY = URI.create("http://127.0.0.1:9/bucket/warehouse/k");
  private static final PutObjectRequest PUT =
      PutObjectRequest.builder().bucket("bucket").key("warehouse/k").build();

  /** A span that is an SDK interceptor, as S3A's are from Hadoop 3.4, editing as it is told. */
  private static final class InterceptingSpan implements AuditSpan, ExecutionInterceptor {
    private final UnaryOperator<SdkHttpRequest> edit;
    Context.ModifyHttpRequest seen;

    InterceptingSpan(UnaryOperator<SdkHttpRequest> edit) {
      this.edit = edit;
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(
        Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
      seen = context;
      return edit.apply(context.httpRequest());
    }

    @Override
    public String getSpanId() {
      return "span-1";
    }

    @Override
    public String getOperationName() {
      return "dtap_committer_put";
    }

    @Override
    public long getTimestamp() {
      return 0;
    }

    @Override
    public AuditSpan activate() {
      return this;
    }

    @Override
    public void deactivate() {}
  }

  private static Map<String, List<String>> headers() {
    Map<String, List<String>> h = new TreeMap<>();
    h.put("content-type", List.of("application/octet-stream"));
    return h;
  }

  @Test
  void theHeadersTheSpanAddsAreAddedAndTheRequestIsShownToIt() throws IOException {
    InterceptingSpan span =
        new InterceptingSpan(
            r -> r.toBuilder().appendHeader("Referer", "https://audit.example.org/op").build());
    Map<String, List<String>> h = headers();
    AuditHeaders.add(span, PUT, SdkHttpMethod.PUT, URI_OF_KEY, h, "put", "dtap://lake/k");
    assertThat(h)
        .containsEntry("referer", List.of("https://audit.example.org/op"))
        .containsEntry("content-type", List.of("application/octet-stream"));
    assertThat(span.seen.request()).isSameAs(PUT);
    assertThat(span.seen.httpRequest().getUri()).isEqualTo(URI_OF_KEY);
    assertThat(span.seen.httpRequest().method()).isEqualTo(SdkHttpMethod.PUT);
    assertThat(span.seen.requestBody()).isEmpty();
  }

  @Test
  void aSpanThatIsNoInterceptorOrNoSpanLeavesTheRequestAsItIs() throws IOException {
    Map<String, List<String>> h = headers();
    AuditHeaders.add(null, PUT, SdkHttpMethod.PUT, URI_OF_KEY, h, "put", "dtap://lake/k");
    TestS3aSpans.RecordingSource source = new TestS3aSpans.RecordingSource();
    try (AuditSpan plain = source.createSpan("dtap_committer_put", "k", null)) {
      AuditHeaders.add(plain, PUT, SdkHttpMethod.PUT, URI_OF_KEY, h, "put", "dtap://lake/k");
    }
    assertThat(h).isEqualTo(headers());
  }

  @Test
  void anAuditorsRefusalIsAccessDeniedNamingTheDtapPath() {
    InterceptingSpan refusing =
        new InterceptingSpan(
            r -> {
              throw new AuditFailureException("multipart IO request rejected");
            });
    assertThatThrownBy(
            () ->
                AuditHeaders.add(
                    refusing,
                    PUT,
                    SdkHttpMethod.PUT,
                    URI_OF_KEY,
                    headers(),
                    "put",
                    "dtap://lake/k"))
        .isInstanceOf(AccessDeniedException.class)
        .hasMessageContaining("dtap://lake/k")
        .hasMessageNotContaining("127.0.0.1");
  }

  @Test
  void aHeaderTheSpanRemovesIsNotSent() throws IOException {
    InterceptingSpan span =
        new InterceptingSpan(
            r -> r.toBuilder().removeHeader("content-type").putHeader("Referer", "x").build());
    Map<String, List<String>> h = headers();
    AuditHeaders.add(span, PUT, SdkHttpMethod.PUT, URI_OF_KEY, h, "put", "dtap://lake/k");
    assertThat(h).containsOnlyKeys("referer");
  }

  @Test
  void aSpanFailingOtherwiseFailsTheRequestAsAnIoExceptionNamingTheDtapPath() {
    IllegalStateException broken = new IllegalStateException("state of http://127.0.0.1:9/");
    InterceptingSpan failing =
        new InterceptingSpan(
            r -> {
              throw broken;
            });
    assertThatThrownBy(
            () ->
                AuditHeaders.add(
                    failing, PUT, SdkHttpMethod.PUT, URI_OF_KEY, headers(), "put", "dtap://lake/k"))
        .isExactlyInstanceOf(IOException.class)
        .hasMessageContaining("dtap://lake/k")
        .hasMessageContaining("IllegalStateException")
        .hasMessageNotContaining("127.0.0.1")
        .hasCause(broken);
  }
}
