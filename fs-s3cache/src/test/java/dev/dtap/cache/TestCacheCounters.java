package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The store's counters show a bypassed disk tier as a gauge beside the fault counts. */
class TestCacheCounters {
  @Test
  void aFaultBypassesTheDiskUntilTheBypassTimeIsOver() {
    Faults longBypass = new Faults(TimeUnit.HOURS.toNanos(1));
    CacheCounters counters = new CacheCounters(null, longBypass);
    assertThat(counters.gauges()).containsEntry(CacheCounters.DISK_BYPASSED, 0L);
    longBypass.fault(Faults.Cause.IO_ERROR, "writing a page", new IOException("disk gone"));
    assertThat(counters.gauges()).containsEntry(CacheCounters.DISK_BYPASSED, 1L);
    assertThat(counters.counters()).containsEntry(Faults.Cause.IO_ERROR.counter(), 1L);

    Faults noBypass = new Faults(0);
    CacheCounters others = new CacheCounters(null, noBypass);
    noBypass.fault(Faults.Cause.IO_ERROR, "writing a page", new IOException("disk gone"));
    assertThat(others.gauges()).containsEntry(CacheCounters.DISK_BYPASSED, 0L);
  }

  @Test
  void streamCountersHaveNoGauges() {
    assertThat(new CacheCounters(null, null).gauges()).isEmpty();
  }
}
