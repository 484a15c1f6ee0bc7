package dev.dtap.commit.s3;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.store.audit.AuditSpan;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * The headers S3A's auditor puts on a request its client sends, put on a request dtap sends over
 * its own HTTP client: above all the {@code Referer} of S3A's logging auditor, which names the
 * operation (the span, {@code dtap_committer_<operation>}), the object, the principal and the job
 * in the store's access log. On S3A of Hadoop 3.4 and later an audit span is an SDK execution
 * interceptor, and the SDK asks it to edit each request before signing it; this asks the span the
 * same, at the same point (before {@link SignedHttp} signs), so the header is signed as the SDK
 * would sign it. Only S3A's own auditors reach here: {@link HttpPlan} sends every request of a tap
 * with an auditor of the user's through S3A's client, which runs all of its callbacks. Stateless.
 */
final class AuditHeaders {
  private AuditHeaders() {}

  /**
   * Adds the headers the span gives a request.
   *
   * @param span the span the request runs in, or null where S3A has no auditing
   * @param request the request S3A's request factory built
   * @param method the request's method
   * @param uri its URI, with the query
   * @param headers its headers (lower-case names), replaced by the ones the span leaves
   * @param operation what is asked, for a refusal's message
   * @param where the dtap path it concerns, for a refusal's message
   * @throws IOException {@link java.nio.file.AccessDeniedException} if the auditor refuses the
   *     request; a plain IOException if the span fails otherwise
   */
  static void add(
      AuditSpan span,
      SdkRequest request,
      SdkHttpMethod method,
      URI uri,
      Map<String, List<String>> headers,
      String operation,
      String where)
      throws IOException {
    if (!(span instanceof ExecutionInterceptor)) {
      return; // no auditing, or S3A of Hadoop 3.3, whose requests never come here
    }
    SdkHttpRequest.Builder b = SdkHttpRequest.builder().method(method).uri(uri);
    headers.forEach(b::putHeader);
    SdkHttpRequest edited;
    try {
      edited =
          ((ExecutionInterceptor) span)
              .modifyHttpRequest(new Exchange(request, b.build()), new ExecutionAttributes());
    } catch (RuntimeException e) {
      if (S3Errors.isAuditRefusal(e)) {
        throw S3Errors.auditRefusal(operation, where, e);
      }
      // the SDK would wrap it as a client exception: here it fails the request as one
      throw new IOException(
          operation + " " + where + ": S3A's audit span failed (" + e.getClass().getName() + ")",
          e);
    }
    // the edited request is the whole request, as the SDK would send it: a header the span
    // removed is removed here too
    headers.clear();
    edited
        .headers()
        .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
  }

  /** What an interceptor is shown of a request about to be signed: no body, as S3A needs none. */
  private static final class Exchange implements Context.ModifyHttpRequest {
    private final SdkRequest request;
    private final SdkHttpRequest httpRequest;

    Exchange(SdkRequest request, SdkHttpRequest httpRequest) {
      this.request = request;
      this.httpRequest = httpRequest;
    }

    @Override
    public SdkRequest request() {
      return request;
    }

    @Override
    public SdkHttpRequest httpRequest() {
      return httpRequest;
    }

    @Override
    public Optional<RequestBody> requestBody() {
      return Optional.empty();
    }

    @Override
    public Optional<AsyncRequestBody> asyncRequestBody() {
      return Optional.empty();
    }
  }
}
