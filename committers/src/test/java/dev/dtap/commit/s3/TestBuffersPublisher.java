package dev.dtap.commit.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class TestBuffersPublisher {
  /** Records what it is given; {@link #onFirst} runs inside the first {@code onNext}. */
  private static final class Recorder implements Flow.Subscriber<ByteBuffer> {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final List<ByteBuffer> seen = new ArrayList<>();
    Flow.Subscription subscription;
    Throwable error;
    int completions;
    Runnable onFirst = () -> {};

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
    }

    @Override
    public void onNext(ByteBuffer b) {
      seen.add(b);
      if (seen.size() == 1) {
        onFirst.run();
      }
      byte[] copy = new byte[b.remaining()];
      b.get(copy);
      bytes.write(copy, 0, copy.length);
    }

    @Override
    public void onError(Throwable t) {
      error = t;
    }

    @Override
    public void onComplete() {
      completions++;
    }
  }

  @Test
  void emitsOnDemandOnlyAndCompletesOnce() {
    byte[] a = {1, 2, 3};
    BuffersPublisher p =
        new BuffersPublisher(List.of(ByteBuffer.wrap(a), ByteBuffer.wrap(new byte[] {4, 5}, 0, 1)));
    Recorder r = new Recorder();
    p.subscribe(r);
    assertThat(r.seen).isEmpty();

    r.subscription.request(1);
    assertThat(r.seen).hasSize(1);
    assertThat(r.seen.get(0).array()).isSameAs(a); // the part's memory itself goes to the socket
    assertThat(r.completions).isZero();

    r.subscription.request(5);
    assertThat(r.bytes.toByteArray()).containsExactly(1, 2, 3, 4);
    assertThat(r.completions).isEqualTo(1);
    r.subscription.request(1);
    assertThat(r.completions).isEqualTo(1);
    assertThat(r.error).isNull();
  }

  @Test
  void aResentRequestSendsTheSameBytesAndTheGivenBuffersNeverMove() {
    ByteBuffer given = ByteBuffer.wrap(new byte[] {7, 8, 9}, 1, 2);
    BuffersPublisher p = new BuffersPublisher(List.of(given));
    for (int attempt = 0; attempt < 2; attempt++) {
      Recorder r = new Recorder();
      p.subscribe(r);
      r.subscription.request(Long.MAX_VALUE);
      assertThat(r.bytes.toByteArray()).containsExactly(8, 9);
      assertThat(r.completions).isEqualTo(1);
    }
    assertThat(given.position()).isEqualTo(1);
    assertThat(given.remaining()).isEqualTo(2);
  }

  @Test
  @Timeout(60) // demand that wrapped negative spins the drain loop: fail instead of hanging
  void demandBeyondLongMaxValueStaysUnbounded() {
    BuffersPublisher p =
        new BuffersPublisher(
            List.of(
                ByteBuffer.wrap(new byte[] {1}),
                ByteBuffer.wrap(new byte[] {2}),
                ByteBuffer.wrap(new byte[] {3})));
    Recorder r = new Recorder();
    r.onFirst = () -> r.subscription.request(Long.MAX_VALUE); // while Long.MAX_VALUE - 1 is left
    p.subscribe(r);
    r.subscription.request(Long.MAX_VALUE);
    assertThat(r.bytes.toByteArray()).containsExactly(1, 2, 3);
    assertThat(r.completions).isEqualTo(1);
  }

  @Test
  void nonPositiveDemandIsAnErrorAsTheFlowSpecificationRequires() {
    Recorder r = new Recorder();
    new BuffersPublisher(List.of(ByteBuffer.wrap(new byte[1]))).subscribe(r);
    r.subscription.request(0);
    assertThat(r.error).isInstanceOf(IllegalArgumentException.class);
    assertThat(r.seen).isEmpty();
  }

  @Test
  void aCancelledSubscriptionEmitsNothingMore() {
    Recorder r = new Recorder();
    new BuffersPublisher(List.of(ByteBuffer.wrap(new byte[1]), ByteBuffer.wrap(new byte[1])))
        .subscribe(r);
    r.subscription.request(1);
    r.subscription.cancel();
    r.subscription.request(1);
    assertThat(r.seen).hasSize(1);
    assertThat(r.completions).isZero();
  }
}
