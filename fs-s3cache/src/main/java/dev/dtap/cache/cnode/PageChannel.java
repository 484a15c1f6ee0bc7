package dev.dtap.cache.cnode;

import dev.dtap.cache.disk.PageFile;
import java.nio.channels.FileChannel;

/**
 * An open page file of the service's (a short-circuit hit), with its verified header. Thread-safe:
 * positioned reads of an immutable file.
 */
public final class PageChannel {
  private final FileChannel channel;
  private final PageFile.Header header;

  PageChannel(FileChannel channel, PageFile.Header header) {
    this.channel = channel;
    this.header = header;
  }

  /**
   * @return the open file (positioned reads only: it may be shared)
   */
  public FileChannel channel() {
    return channel;
  }

  /**
   * @return its verified header
   */
  public PageFile.Header header() {
    return header;
  }
}
