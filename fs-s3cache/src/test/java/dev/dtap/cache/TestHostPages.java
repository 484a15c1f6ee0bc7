package dev.dtap.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dtap.cache.disk.DiskIo;
import dev.dtap.cache.disk.PageKey;
import dev.dtap.fs.testing.LocalTaps;
import java.io.File;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The cache directories are the host's: what one JVM asks of them covers the pages other JVMs wrote
 * or deleted since it last scanned them.
 */
class TestHostPages {
  private static final int PAGE = 64 << 10;

  @Test
  void aPageAnotherJvmCachedAfterThisOnesScanCountsAsCachedUntilItIsGone() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("fs.dtap.cache.dirs", new File(LocalTaps.newDir("host-pages"), "p").getPath());
    conf.set("fs.dtap.cache.page.size", "64k");
    conf.set("fs.dtap.cache.memory.size", "0");
    CacheConfig config = CacheConfig.parse(conf);
    PageStore here = PageStore.privateStore(config, DiskIo.NIO);
    PageStore other = PageStore.privateStore(config, DiskIo.NIO); // another task JVM's
    try {
      assertThat(((LocalHostTier) here.host()).awaitIndexed(60, TimeUnit.SECONDS)).isTrue();
      PageKey key = new PageKey(0x1234, 0x5678);
      assertThat(here.isCached(key)).isFalse();

      other.keepOnHost(key, new byte[PAGE]);
      other.flush();

      assertThat(here.isCached(key))
          .as("a page the other JVM wrote after this one's scan")
          .isTrue();
      other.host().forget(key);
      assertThat(here.isCached(key)).as("once the other JVM deleted it").isFalse();
    } finally {
      here.release();
      other.release();
    }
  }
}
