package dev.dtap.cache.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A scan of the directories runs beside the cache's own writes and deletes: what changes behind the
 * scanner must survive the take-over of its result.
 */
class TestDiskQuotaScan {
  private static final PageKey LISTED = new PageKey(1, 2);
  private static final PageKey WRITTEN_AFTER = new PageKey(3, 4);
  private static final PageKey DELETED_AFTER = new PageKey(5, 6);
  private static final PageKey REWRITTEN = new PageKey(7, 8);

  /** The scanner's result: the pages it listed, with the sizes it found. */
  private static DiskIndex scanned(long[] seen, Object... keysAndSizes) {
    DiskIndex fresh = new DiskIndex();
    for (int i = 0; i < keysAndSizes.length; i += 2) {
      PageKey key = (PageKey) keysAndSizes[i];
      int size = (Integer) keysAndSizes[i + 1];
      fresh.put(key, size, 0, fresh.now());
      seen[0] += size;
    }
    return fresh;
  }

  @Test
  void changesBehindTheScannerSurviveItsTakeOver() {
    DiskQuota quota = new DiskQuota(1);
    quota.setQuota(0, 10_000);
    quota.written(DELETED_AFTER, 300);
    quota.written(REWRITTEN, 400);

    quota.scanBegins();
    long[] seen = new long[1];
    DiskIndex fresh = scanned(seen, LISTED, 100, DELETED_AFTER, 300, REWRITTEN, 400);
    quota.written(WRITTEN_AFTER, 200); // after the scanner passed its directory
    quota.removed(DELETED_AFTER); // after the scanner listed it
    quota.written(REWRITTEN, 450);
    quota.replaceWith(fresh, seen);

    assertTrue(quota.contains(LISTED));
    assertTrue(quota.contains(WRITTEN_AFTER), "a page written during the scan is forgotten");
    assertFalse(quota.contains(DELETED_AFTER), "a page deleted during the scan comes back");
    assertTrue(quota.contains(REWRITTEN));
    assertEquals(100 + 200 + 450, quota.usedBytes());
    assertEquals(3, quota.pages());
  }

  @Test
  void aPageDeletedAndWrittenAgainDuringTheScanIsKept() {
    DiskQuota quota = new DiskQuota(1);
    quota.setQuota(0, 10_000);
    quota.scanBegins();
    long[] seen = new long[1];
    DiskIndex fresh = scanned(seen, LISTED, 100);
    quota.removed(LISTED);
    quota.written(LISTED, 120);
    quota.replaceWith(fresh, seen);

    assertTrue(quota.contains(LISTED));
    assertEquals(120, quota.usedBytes());
  }

  @Test
  void changesBeforeALaterScanAreNotLaidOverIt() {
    DiskQuota quota = new DiskQuota(1);
    quota.setQuota(0, 10_000);
    quota.scanBegins();
    quota.written(WRITTEN_AFTER, 200);
    quota.scanAbandoned(); // the first scan failed: nothing taken over, nothing remembered

    quota.scanBegins();
    long[] seen = new long[1];
    // the page's file is gone by the second scan (another process evicted it)
    DiskIndex fresh = scanned(seen, LISTED, 100);
    quota.replaceWith(fresh, seen);

    assertFalse(quota.contains(WRITTEN_AFTER));
    assertEquals(100, quota.usedBytes());
  }

  @Test
  void withoutAScanChangesAreNotRemembered() {
    DiskQuota quota = new DiskQuota(1);
    quota.setQuota(0, 10_000);
    quota.written(WRITTEN_AFTER, 200);
    quota.scanBegins();
    long[] seen = new long[1];
    DiskIndex fresh = scanned(seen, LISTED, 100); // the page was deleted by another process
    quota.replaceWith(fresh, seen);

    assertFalse(quota.contains(WRITTEN_AFTER));
    assertEquals(100, quota.usedBytes());
  }
}
