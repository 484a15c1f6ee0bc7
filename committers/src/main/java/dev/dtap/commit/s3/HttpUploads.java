package dev.dtap.commit.s3;

import dev.dtap.commit.store.KeyNames;
import dev.dtap.commit.store.NoSuchUploadException;
import dev.dtap.commit.store.PartData;
import dev.dtap.commit.store.StoreStatistics.Op;
import dev.dtap.commit.store.UploadedPart;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.store.audit.AuditSpan;
import software.amazon.awssdk.awscore.AwsRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * The requests made for every file, sent by dtap over the JDK's HTTP client ({@link SignedHttp})
 * instead of through the SDK's per-request pipeline: each is built by S3A's request factory, so it
 * carries exactly S3A's headers ({@link RequestHeaders}), and signed by the SDK's signer. Answers
 * are classified as the SDK's exceptions are ({@link S3Errors}); an {@code <Error>} inside a 200
 * answer to complete is an error; a losing conditional put (412, 409) is an answer. Each request is
 * built and sent inside an S3A audit span of its own ({@link S3aSpans}) and carries the headers
 * that span gives it ({@link AuditHeaders}), the headers the same request through S3A's client
 * would carry; S3A's audit statistics do not count these requests. Thread-safe.
 */
final class HttpUploads implements UploadRequests {
  private final S3aV2Access s3a;
  private final S3aSpans spans;
  private final SignedHttp http;
  private final HttpPlan plan;
  private final KeyNames names;
  private final Map<String, List<String>> clientHeaders;
  private final PartChecksum checksum;
  private final boolean addChecksumAlgorithm;
  private final boolean signPayload;

  /**
   * @param s3a the tap's S3A
   * @param plan where the requests go
   * @param names names keys in messages
   * @param checksum the parts' checksum, or null
   * @param addChecksumAlgorithm whether initiate must ask for the checksum itself (S3A does not)
   * @param signPayload whether part payloads over plain http are signed
   */
  HttpUploads(
      S3aV2Access s3a,
      HttpPlan plan,
      KeyNames names,
      PartChecksum checksum,
      boolean addChecksumAlgorithm,
      boolean signPayload) {
    this.s3a = s3a;
    this.spans = s3a.spans();
    this.plan = plan;
    this.http = new SignedHttp(plan, s3a.credentials());
    this.names = names;
    this.clientHeaders =
        s3a.client().serviceClientConfiguration().overrideConfiguration().headers();
    this.checksum = checksum;
    this.addChecksumAlgorithm = addChecksumAlgorithm;
    this.signPayload = signPayload;
  }

  /**
   * Checks that every request these uploads send can carry S3A's settings.
   *
   * @param s3a the tap's S3A
   * @throws IllegalArgumentException naming a field S3A sets that these requests cannot send
   * @throws IOException if S3A refuses to build a request
   */
  static void checkHeaders(S3aV2Access s3a) throws IOException {
    Map<String, List<String>> client =
        s3a.client().serviceClientConfiguration().overrideConfiguration().headers();
    RequestHeaders.of(s3a.initiate("k").build(), client);
    RequestHeaders.of(s3a.part("k", "u", 1, 1).build(), client);
    RequestHeaders.of(
        s3a.complete("k", "u", ClientUploads.completedParts(List.of())).build(), client);
    RequestHeaders.of(s3a.put("k", 1).build(), client);
  }

  /** The body type the SDK sends S3A's initiate with, which the completed object keeps. */
  static final String INITIATE_CONTENT_TYPE = "binary/octet-stream";

  /** The body type S3A gives the SDK for parts and small objects. */
  static final String BODY_CONTENT_TYPE = "application/octet-stream";

  /**
   * The headers of a request as the SDK would send them for S3A: the request's own, and where it
   * has no {@code Content-Type}, the one S3A's call gives (its body's, or the SDK's default).
   *
   * @param request the request S3A's factory built
   * @param clientHeaders the headers of S3A's client
   * @param contentType the type to send where the request names none
   * @return the headers, a mutable map
   */
  static Map<String, List<String>> headers(
      AwsRequest request, Map<String, List<String>> clientHeaders, String contentType) {
    Map<String, List<String>> h = new TreeMap<>(RequestHeaders.of(request, clientHeaders));
    h.putIfAbsent("content-type", List.of(contentType));
    return h;
  }

  private static Duration timeout(AwsRequest r) {
    return r.overrideConfiguration().flatMap(o -> o.apiCallTimeout()).orElse(null);
  }

  @Override
  public String initiate(String key) throws IOException {
    return spans.withSpan(Op.INITIATE, key, span -> initiate(key, span));
  }

  private String initiate(String key, AuditSpan span) throws IOException {
    String where = names.display(key);
    String what = "initiate upload to " + where;
    AwsRequest request = s3a.initiate(key).build();
    Map<String, List<String>> h = headers(request, clientHeaders, INITIATE_CONTENT_TYPE);
    if (addChecksumAlgorithm) {
      h.put("x-amz-checksum-algorithm", List.of(checksum.name()));
    }
    URI uri = plan.uri(key, "uploads");
    AuditHeaders.add(span, request, SdkHttpMethod.POST, uri, h, "initiate upload to", where);
    SignedHttp.Answer a = http.send(SdkHttpMethod.POST, uri, h, SignedHttp.Body.none(), null, what);
    if (!a.ok()) {
      throw S3Errors.translate("initiate upload to", where, a);
    }
    return S3Xml.parse(a.body, what)
        .child("UploadId")
        .filter(id -> !id.isEmpty())
        .orElseThrow(() -> new IOException(what + ": the store's answer has no UploadId"));
  }

  @Override
  public UploadedPart uploadPart(String key, String uploadId, int partNumber, PartData data)
      throws IOException {
    return spans.withSpan(
        Op.UPLOAD_PART, key, span -> uploadPart(key, uploadId, partNumber, data, span));
  }

  private UploadedPart uploadPart(
      String key, String uploadId, int partNumber, PartData data, AuditSpan span)
      throws IOException {
    String where = names.display(key);
    String op = "upload part " + partNumber + " of upload " + uploadId + " to";
    UploadPartRequest request = s3a.part(key, uploadId, partNumber, data.length()).build();
    Map<String, List<String>> h = headers(request, clientHeaders, BODY_CONTENT_TYPE);
    String sum = null;
    if (checksum != null) {
      sum = checksum.of(data);
      h.put(checksum.header(), List.of(sum));
    }
    URI uri =
        plan.uri(key, "partNumber=" + partNumber + "&uploadId=" + SdkHttpUtils.urlEncode(uploadId));
    AuditHeaders.add(span, request, SdkHttpMethod.PUT, uri, h, op, where);
    SignedHttp.Answer a =
        http.send(
            SdkHttpMethod.PUT,
            uri,
            h,
            SignedHttp.Body.of(data, signPayload),
            timeout(request),
            op + " " + where);
    if (!a.ok()) {
      throw S3Errors.translate(op, where, a);
    }
    String etag = a.header("ETag");
    if (etag == null) {
      throw new IOException(op + " " + where + ": the store's answer has no ETag");
    }
    return new UploadedPart(
        partNumber, etag, data.length(), checksum == null ? null : checksum.name(), sum);
  }

  @Override
  public String complete(String key, String uploadId, List<UploadedPart> parts) throws IOException {
    return spans.withSpan(Op.COMPLETE, key, span -> complete(key, uploadId, parts, span));
  }

  private String complete(String key, String uploadId, List<UploadedPart> parts, AuditSpan span)
      throws IOException {
    String where = names.display(key);
    String op = "complete upload " + uploadId + " to";
    List<CompletedPart> done = ClientUploads.completedParts(parts);
    AwsRequest request = s3a.complete(key, uploadId, done).build();
    Map<String, List<String>> h = headers(request, clientHeaders, "application/xml");
    StringBuilder xml =
        new StringBuilder(
            "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
    for (UploadedPart p : parts) {
      xml.append("<Part><PartNumber>")
          .append(p.number())
          .append("</PartNumber><ETag>")
          .append(S3Xml.escape(p.etag()))
          .append("</ETag>");
      if (p.checksum() != null) {
        String e = PartChecksum.of(p.checksumAlgorithm()).element();
        xml.append('<')
            .append(e)
            .append('>')
            .append(S3Xml.escape(p.checksum()))
            .append("</")
            .append(e)
            .append('>');
      }
      xml.append("</Part>");
    }
    xml.append("</CompleteMultipartUpload>");
    URI uri = plan.uri(key, "uploadId=" + SdkHttpUtils.urlEncode(uploadId));
    AuditHeaders.add(span, request, SdkHttpMethod.POST, uri, h, op, where);
    SignedHttp.Answer a =
        http.send(
            SdkHttpMethod.POST,
            uri,
            h,
            SignedHttp.Body.of(xml.toString().getBytes(StandardCharsets.UTF_8)),
            null,
            op + " " + where);
    if (!a.ok()) {
      throw S3Errors.translate(op, where, a);
    }
    S3Xml answer = S3Xml.parse(a.body, op + " " + where);
    if (answer.root().equals("Error")) {
      // S3 may fail a complete after answering 200
      IOException x =
          S3Errors.translate(
              op,
              where,
              200,
              answer.child("Code").orElse(""),
              answer.child("Message").orElse(null),
              null);
      if (x instanceof NoSuchUploadException) {
        throw x;
      }
      throw new IOException(x.getMessage());
    }
    return answer
        .child("ETag")
        .orElseThrow(() -> new IOException(op + " " + where + ": the store's answer has no ETag"));
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    SignedHttp.Answer a = put(key, data, false);
    if (!a.ok()) {
      throw S3Errors.translate("put", names.display(key), a);
    }
  }

  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    SignedHttp.Answer a = put(key, data, true);
    if (a.status == 412 || a.status == 409) {
      return false; // it exists, or another conditional write of the key is in progress
    }
    if (!a.ok()) {
      throw S3Errors.translate("conditional put", names.display(key), a);
    }
    return true;
  }

  private SignedHttp.Answer put(String key, byte[] data, boolean ifAbsent) throws IOException {
    return spans.withSpan(Op.PUT, key, span -> put(key, data, ifAbsent, span));
  }

  private SignedHttp.Answer put(String key, byte[] data, boolean ifAbsent, AuditSpan span)
      throws IOException {
    String where = names.display(key);
    AwsRequest request = s3a.put(key, data.length).build();
    Map<String, List<String>> h = headers(request, clientHeaders, BODY_CONTENT_TYPE);
    if (ifAbsent) {
      h.put("if-none-match", Collections.singletonList("*"));
    }
    if (h.get("x-amz-sdk-checksum-algorithm") != null && checksum != null) {
      h.put(checksum.header(), List.of(checksum.of(PartData.of(List.of(data), data.length))));
    }
    URI uri = plan.uri(key, null);
    AuditHeaders.add(span, request, SdkHttpMethod.PUT, uri, h, "put", where);
    return http.send(SdkHttpMethod.PUT, uri, h, SignedHttp.Body.of(data), null, "put " + where);
  }

  @Override
  public void close() {
    // the JDK's client keeps no resource beyond its idle connections, which it closes itself
  }

  @Override
  public String toString() {
    return "HttpUploads{" + plan + "}";
  }
}
