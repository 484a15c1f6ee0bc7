package dev.dtap.commit.s3;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A request body made of buffers over a part's own memory, handed to the JDK's HTTP client as they
 * are: the JDK's {@code BodyPublishers.ofByteArrays} copies every array into buffers of its own
 * first, a copy of every byte sent. Emits on the subscriber's demand, one buffer at a time.
 *
 * <p>Each subscription emits views of the buffers from their positions as given, so a resent
 * request sends the same bytes and the given buffers never move. Thread-safe: a subscription may be
 * driven from several threads, as the client does.
 */
final class BuffersPublisher implements Flow.Publisher<ByteBuffer> {
  private final List<ByteBuffer> buffers;

  /**
   * @param buffers the body, in order; their bytes are not copied, so they must not change until
   *     the request ends
   */
  BuffersPublisher(List<ByteBuffer> buffers) {
    this.buffers = List.copyOf(buffers);
  }

  @Override
  public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
    subscriber.onSubscribe(new Subscription(subscriber));
  }

  private final class Subscription implements Flow.Subscription {
    private final Flow.Subscriber<? super ByteBuffer> subscriber;
    private final AtomicLong demand = new AtomicLong();
    private final AtomicBoolean draining = new AtomicBoolean();
    private volatile boolean done;
    private int next;

    Subscription(Flow.Subscriber<? super ByteBuffer> subscriber) {
      this.subscriber = subscriber;
    }

    @Override
    public void request(long n) {
      if (done) {
        return;
      }
      if (n <= 0) {
        done = true;
        subscriber.onError(new IllegalArgumentException("non-positive demand " + n));
        return;
      }
      demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
      drain();
    }

    /** Emits while there is demand; one thread at a time, re-entrant calls only add demand. */
    private void drain() {
      while (draining.compareAndSet(false, true)) {
        try {
          while (!done && demand.get() > 0) {
            if (next == buffers.size()) {
              done = true;
              subscriber.onComplete();
              return;
            }
            demand.decrementAndGet();
            subscriber.onNext(buffers.get(next++).duplicate());
          }
          if (!done && next == buffers.size()) {
            done = true;
            subscriber.onComplete();
            return;
          }
        } finally {
          draining.set(false);
        }
        if (done || demand.get() == 0) {
          return;
        }
      }
    }

    @Override
    public void cancel() {
      done = true;
    }
  }
}
