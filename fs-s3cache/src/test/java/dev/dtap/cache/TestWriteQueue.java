package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.cache.disk.DiskIo;
import dev.dtap.cache.disk.PageKey;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Pages wait for the disk in a queue of their own budget ({@code fs.dtap.cache.write.memory}):
 * while the disk is behind, pages beyond it are not kept, and counted, and the reader never waits.
 */
class TestWriteQueue {
  private static final int PAGE = 64 << 10;

  private static PageStore store(String name, String writeMemory, DiskIo io) throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("fs.dtap.cache.dirs", new File(LocalTaps.newDir(name), "p").getPath());
    conf.set("fs.dtap.cache.page.size", "64k");
    conf.set("fs.dtap.cache.memory.size", "0");
    conf.set("fs.dtap.cache.prefetch.memory", "64k");
    conf.set("fs.dtap.cache.write.memory", writeMemory);
    return PageStore.privateStore(CacheConfig.parse(conf), io);
  }

  @Test
  void pagesBeyondTheQueuesBudgetAreDroppedAndCountedWhileTheDiskIsBehind() throws Exception {
    HeldDisk disk = new HeldDisk();
    PageStore store = store("write-queue", "256k", disk);
    try {
      for (int i = 0; i < 6; i++) {
        store.keepOnHost(new PageKey(7, i), new byte[PAGE]); // returns at once: the disk is held
      }
      disk.release.countDown();
      store.flush();

      for (int i = 0; i < 4; i++) {
        assertThat(store.isCached(new PageKey(7, i))).as("page %d, within 256k", i).isTrue();
      }
      assertThat(store.isCached(new PageKey(7, 4))).isFalse();
      assertThat(store.isCached(new PageKey(7, 5))).isFalse();
      assertThat(store.counters().counters()).containsEntry(CacheCounters.WRITES_DROPPED, 2L);
    } finally {
      disk.release.countDown();
      store.release();
    }
  }

  @Test
  void theWriteQueueIsNotBoundByThePrefetchBudget() throws Exception {
    // a control: the same six pages with room for all of them, prefetch still held to one page
    HeldDisk disk = new HeldDisk();
    PageStore store = store("write-queue-room", "1m", disk);
    try {
      for (int i = 0; i < 6; i++) {
        store.keepOnHost(new PageKey(8, i), new byte[PAGE]);
      }
      disk.release.countDown();
      store.flush();

      for (int i = 0; i < 6; i++) {
        assertThat(store.isCached(new PageKey(8, i))).as("page %d", i).isTrue();
      }
      assertThat(store.counters().counters()).containsEntry(CacheCounters.WRITES_DROPPED, 0L);
    } finally {
      disk.release.countDown();
      store.release();
    }
  }
}
