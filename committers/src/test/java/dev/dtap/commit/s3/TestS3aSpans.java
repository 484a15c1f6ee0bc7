package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dtap.commit.store.StoreStatistics.Op;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.store.audit.AuditSpan;
import org.apache.hadoop.fs.store.audit.AuditSpanSource;
import org.junit.jupiter.api.Test;

class TestS3aSpans {
  /** Records the spans it makes and which one is active on each thread, as S3A's manager does. */
  static final class RecordingSource implements AuditSpanSource<AuditSpan> {
    final List<String> made = Collections.synchronizedList(new ArrayList<>());
    final ThreadLocal<Span> active = new ThreadLocal<>();

    @Override
    public AuditSpan createSpan(String operation, String path1, String path2) {
      made.add(operation + " " + path1 + " " + path2);
      Span s = new Span(operation);
      return s.activate();
    }

    final class Span implements AuditSpan {
      private final String operation;

      Span(String operation) {
        this.operation = operation;
      }

      @Override
      public String getSpanId() {
        return Integer.toHexString(System.identityHashCode(this));
      }

      @Override
      public String getOperationName() {
        return operation;
      }

      @Override
      public long getTimestamp() {
        return 0;
      }

      @Override
      public AuditSpan activate() {
        active.set(this);
        return this;
      }

      @Override
      public void deactivate() {
        active.remove();
      }
    }
  }

  private final RecordingSource source = new RecordingSource();
  private final S3aSpans spans = new S3aSpans(source);

  @Test
  void aRequestRunsInItsOwnSpanNamedForTheOperationAndKey() throws IOException {
    String seen = spans.run(Op.HEAD, "out/part-0", () -> source.active.get().getOperationName());
    assertThat(seen).isEqualTo("dtap_committer_head");
    assertThat(source.made).containsExactly("dtap_committer_head out/part-0 null");
    assertThat(source.active.get()).as("the span is closed when the request returns").isNull();
  }

  @Test
  void theSpanIsClosedWhenTheRequestFails() {
    assertThatThrownBy(
            () ->
                spans.run(
                    Op.PUT,
                    "k",
                    () -> {
                      throw new IOException("refused");
                    }))
        .hasMessage("refused");
    assertThat(source.active.get()).isNull();
  }

  @Test
  void threadsSendingAtOnceEachHaveTheirOwnSpan() throws Exception {
    CountDownLatch bothInside = new CountDownLatch(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<Object>> spansSeen = new ArrayList<>();
      for (Op op : new Op[] {Op.DELETE, Op.HEAD}) {
        spansSeen.add(
            pool.submit(
                () ->
                    spans.run(
                        op,
                        "k",
                        () -> {
                          bothInside.countDown();
                          awaitQuietly(bothInside);
                          return source.active.get();
                        })));
      }
      Object first = spansSeen.get(0).get();
      Object second = spansSeen.get(1).get();
      assertThat(first).isNotNull().isNotSameAs(second);
      assertThat(((AuditSpan) first).getOperationName()).isEqualTo("dtap_committer_delete");
      assertThat(((AuditSpan) second).getOperationName()).isEqualTo("dtap_committer_head");
    } finally {
      pool.shutdownNow();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) throws InterruptedIOException {
    try {
      assertThat(latch.await(1, TimeUnit.MINUTES)).as("both threads inside a span").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
  }

  @Test
  void anS3aWithoutAuditingRunsTheRequestAsItIs() throws IOException {
    assertThat(new S3aSpans(null).run(Op.GET, "k", () -> "answer")).isEqualTo("answer");
  }
}
