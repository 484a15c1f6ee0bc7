package dev.dtap.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.dtap.cache.cnode.CnodeClient;
import dev.dtap.cache.disk.PageKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How a task JVM's sightings go with the host's cache service: asked when it keeps them, never
 * asked when it is an older service that does not, and this JVM's own remembered whatever the
 * service does.
 */
class TestServiceSightings {
  private static final PageKey PAGE = new PageKey(11, 12);

  private final AtomicInteger breakerAsked = new AtomicInteger();
  private final AtomicInteger answered = new AtomicInteger();
  private final List<IOException> failures = new ArrayList<>();

  private ServiceSightings sightingsOf(CnodeClient connected, CnodeClient allowed) {
    return new ServiceSightings(
        () -> connected,
        () -> {
          breakerAsked.incrementAndGet();
          return allowed;
        },
        failures::add,
        answered::incrementAndGet);
  }

  private static CnodeClient service(boolean keepsSightings) {
    CnodeClient c = mock(CnodeClient.class);
    when(c.keepsSightings()).thenReturn(keepsSightings);
    return c;
  }

  @Test
  void anOlderServiceIsNeverAskedNorIsItsBreakerProbed() throws IOException {
    CnodeClient older = service(false);
    ServiceSightings s = sightingsOf(older, older);

    assertFalse(s.seenBefore(PAGE));
    assertTrue(s.seenBefore(PAGE), "this JVM's own sighting is forgotten");
    assertTrue(s.contains(PAGE));

    verify(older, never()).seen(any(), anyBoolean());
    assertEquals(0, breakerAsked.get());
  }

  @Test
  void anOlderServiceReachedByTheBreakersProbeCountsAsAnswered() throws IOException {
    CnodeClient older = service(false);
    ServiceSightings s = sightingsOf(null, older); // not yet connected: the probe connects

    assertFalse(s.seenBefore(PAGE));

    verify(older, never()).seen(any(), anyBoolean());
    assertEquals(1, breakerAsked.get());
    assertEquals(1, answered.get(), "the probe's success is not reported to the breaker");
  }

  @Test
  void aServiceThatKeepsSightingsAnswersForTheWholeHost() throws IOException {
    CnodeClient c = service(true);
    when(c.seen(PAGE, true)).thenReturn(true); // another task JVM met the page
    ServiceSightings s = sightingsOf(c, c);

    assertTrue(s.seenBefore(PAGE));
    verify(c).seen(PAGE, true);
    assertEquals(1, answered.get());
  }

  @Test
  void whatThisJvmMetIsAnsweredWithoutAsking() throws IOException {
    CnodeClient c = service(true);
    ServiceSightings s = sightingsOf(c, c);

    assertFalse(s.seenBefore(PAGE)); // asked once, recorded on both sides
    assertTrue(s.seenBefore(PAGE));
    assertTrue(s.contains(PAGE));

    verify(c).seen(PAGE, true);
    verify(c, never()).seen(PAGE, false);
  }

  @Test
  void aFailingServiceIsReportedAndTheJvmsOwnSightingsStillHold() throws IOException {
    CnodeClient c = service(true);
    IOException down = new IOException("the cache service closed the connection");
    when(c.seen(any(), anyBoolean())).thenThrow(down);
    ServiceSightings s = sightingsOf(c, c);

    assertFalse(s.seenBefore(PAGE));
    assertEquals(List.of(down), failures);
    assertEquals(0, answered.get());
    assertTrue(s.seenBefore(PAGE));
  }

  @Test
  void aServiceTheBreakerHoldsBackIsNotAsked() {
    ServiceSightings s = sightingsOf(null, null);

    assertFalse(s.contains(PAGE));
    assertFalse(s.seenBefore(PAGE));
    assertTrue(s.seenBefore(PAGE));
    assertTrue(failures.isEmpty());
    assertEquals(0, answered.get());
  }
}
