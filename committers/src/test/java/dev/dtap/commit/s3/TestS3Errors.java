package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.commit.store.NoSuchUploadException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.file.AccessDeniedException;
import org.apache.hadoop.fs.s3a.audit.AuditFailureException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;

class TestS3Errors {
  private static final String ENDPOINT = "minio.lake.example.com:9000";

  @Test
  void aFailureBeforeTheStoreAnsweredTellsItsKindButNotTheEndpoint() {
    Exception client =
        new RuntimeException(
            "Unable to execute HTTP request: Connect to " + ENDPOINT + " failed",
            new ConnectException("Connect to " + ENDPOINT + " failed: Connection refused"));
    IOException e =
        S3Errors.unanswered("Initiating an upload of", "dtap://lake/out/part-0", client);
    assertThat(e.getMessage())
        .contains("dtap://lake/out/part-0")
        .contains("ConnectException")
        .doesNotContain("minio.lake")
        .doesNotContain("9000");
    assertThat(e.getCause())
        .as("the cause keeps the client's text for a debugger")
        .isSameAs(client);
  }

  @Test
  void aRequestS3asAuditorRefusedIsAccessDeniedNamingTheDtapPath() {
    AuditFailureException refusal =
        new AuditFailureException(
            "unaudited operation executing a request outside an audit span {object_put_request}");
    assertThat(S3Errors.isAuditRefusal(refusal)).isTrue();
    assertThat(S3Errors.isAuditRefusal(new RuntimeException("other"))).isFalse();
    IOException e = S3Errors.auditRefusal("put", "dtap://lake/out/part-0", refusal);
    assertThat(e)
        .isInstanceOf(AccessDeniedException.class)
        .hasMessageContaining("dtap://lake/out/part-0")
        .hasMessageContaining("fs.s3a.audit")
        .hasCause(refusal);
  }

  @Test
  void aRefusalTheSdkWrappedIsStillAccessDenied() {
    AuditFailureException refusal = new AuditFailureException("refused by the user's auditor");
    SdkClientException wrapped =
        SdkClientException.builder().message("interceptor failed").cause(refusal).build();
    IOException e = S3Errors.translate("put", "dtap://lake/out/part-0", wrapped);
    assertThat(e)
        .isInstanceOf(AccessDeniedException.class)
        .hasMessageContaining("dtap://lake/out/part-0")
        .hasCause(wrapped);
  }

  @Test
  void anAnswerCutShortTellsItsKindButNotTheEndpoint() {
    UncheckedIOException cut =
        new UncheckedIOException(new IOException("Premature end of " + ENDPOINT + " response"));
    IOException e = S3Errors.translate("Listing the parts of", "dtap://lake/out/part-0", cut);
    assertThat(e.getMessage()).contains("dtap://lake/out/part-0").doesNotContain("minio.lake");
  }

  @Test
  void aCompleteThatFindsItsUploadGoneIsNoSuchUploadWhateverTheStoreCallsIt() {
    Exception cause = new RuntimeException("the SDK's exception");
    for (String code : new String[] {"NoSuchUpload", "InvalidPart"}) {
      IOException e = complete(code.equals("InvalidPart") ? 400 : 404, code, "gone", cause);
      assertThat(e)
          .as(code)
          .isInstanceOf(NoSuchUploadException.class)
          .hasMessageContaining("dtap://lake/out/part-0")
          .hasMessageContaining(code)
          .hasCause(cause);
    }
    assertThat(complete(403, "AccessDenied", null, cause))
        .isInstanceOf(AccessDeniedException.class);
    assertThat(complete(400, "EntityTooSmall", null, cause))
        .isNotInstanceOf(NoSuchUploadException.class)
        .hasMessageContaining("400");
  }

  @Test
  void whatARequestNamesDecidesWhatANotFoundMeans() {
    Exception cause = new RuntimeException("the SDK's exception");
    // the operation's text mentions an upload in every case: only the subject decides
    String op = "upload-related request on";
    assertThat(answer(op, S3Errors.Subject.OBJECT, 404, "", cause))
        .isInstanceOf(FileNotFoundException.class)
        .isNotInstanceOf(NoSuchUploadException.class);
    assertThat(answer(op, S3Errors.Subject.UPLOAD, 404, "", cause))
        .isInstanceOf(NoSuchUploadException.class);
    assertThat(answer(op, S3Errors.Subject.UPLOAD, 400, "InvalidPart", cause))
        .isNotInstanceOf(NoSuchUploadException.class);
    assertThat(answer(op, S3Errors.Subject.UPLOAD, 404, "NoSuchKey", cause))
        .isInstanceOf(FileNotFoundException.class)
        .isNotInstanceOf(NoSuchUploadException.class);
    assertThat(answer("get", S3Errors.Subject.OBJECT, 404, "NoSuchUpload", cause))
        .isInstanceOf(FileNotFoundException.class)
        .isNotInstanceOf(NoSuchUploadException.class);
  }

  private static IOException complete(int status, String code, String message, Exception cause) {
    return S3Errors.answered(
        "complete upload u-1 to",
        "dtap://lake/out/part-0",
        S3Errors.Subject.COMPLETE,
        status,
        code,
        message,
        cause);
  }

  private static IOException answer(
      String op, S3Errors.Subject subject, int status, String code, Exception cause) {
    return S3Errors.answered(op, "dtap://lake/out/part-0", subject, status, code, null, cause);
  }
}
