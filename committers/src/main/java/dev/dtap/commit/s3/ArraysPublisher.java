package dev.dtap.commit.s3;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A request body made of a part's own arrays, handed to the JDK's HTTP client as buffers that wrap
 * them: the JDK's {@code BodyPublishers.ofByteArrays} copies every array into buffers of its own
 * first, a copy of every byte sent. Emits on the subscriber's demand, one array per buffer.
 *
 * <p>Each subscription reads the arrays from the start, so a resent request sends the same bytes.
 * Thread-safe: a subscription may be driven from several threads, as the client does.
 */
final class ArraysPublisher implements Flow.Publisher<ByteBuffer> {
  private final List<byte[]> arrays;

  /**
   * @param arrays the body, in order; not copied, so they must not change until the request ends
   */
  ArraysPublisher(List<byte[]> arrays) {
    this.arrays = arrays;
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
            if (next == arrays.size()) {
              done = true;
              subscriber.onComplete();
              return;
            }
            demand.decrementAndGet();
            subscriber.onNext(ByteBuffer.wrap(arrays.get(next++)));
          }
          if (!done && next == arrays.size()) {
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
