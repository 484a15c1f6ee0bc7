package dev.dtap.cache.cnode;

import dev.dtap.cache.disk.PageFile;
import dev.dtap.cache.disk.PageKey;
import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.time.Duration;

/**
 * Turns the service's short-circuit hits into pages a task JVM reads: the descriptor the service
 * passed along the descriptor line, matched to its answer by sequence, opened as a page file and
 * verified. What it cannot use it gives back, so the service never keeps a page held for nobody.
 *
 * <p>Thread-safe.
 */
final class DescriptorHits {
  private final CnodeClient client;
  private final ClientConnection data;
  private final Duration requestTimeout;

  /**
   * @param client releases pages and reports corrupt ones
   * @param data the connection whose answers carry the descriptors' sequence numbers
   * @param requestTimeout how long a descriptor may lag its answer
   */
  DescriptorHits(CnodeClient client, ClientConnection data, Duration requestTimeout) {
    this.client = client;
    this.data = data;
    this.requestTimeout = requestTimeout;
  }

  /**
   * The hit a descriptor brings: the page file, readable with positioned reads (the service keeps
   * the page until {@link CnodeClient#release}), or, where the file cannot be reopened, its
   * verified bytes; a miss if the page fails verification (reported to the service).
   *
   * @param key the page asked for
   * @param sequence the descriptor's number on the descriptor line
   * @param size the page file's size
   * @throws IOException if the descriptor does not come within the request deadline or cannot be
   *     read, or the descriptor line is out of step (the client is then closed)
   */
  PageLookup open(PageKey key, int sequence, long size) throws IOException {
    FileDescriptor fd;
    try {
      fd = Deadlines.await(data.descriptor(sequence), requestTimeout);
    } catch (IOException e) {
      data.descriptor(sequence).thenAccept(ClientConnection::closeQuietly);
      client.release(key);
      throw e;
    }
    FileChannel ch = Descriptors.channel(fd);
    try {
      if (ch == null) {
        try {
          byte[] file = Descriptors.readAll(fd, size);
          return PageLookup.bytes(PageFile.decode(file, key));
        } finally {
          ClientConnection.closeQuietly(fd);
          client.release(key);
        }
      }
      return PageLookup.hit(new PageChannel(ch, PageFile.readHeader(ch, key, ch.size())));
    } catch (PageFile.ForeignPageException e) {
      // the descriptor is another page's: the line is out of step; start over on a new connection
      closeQuietly(ch);
      client.close();
      throw new IOException("the cache service's descriptors are out of step with its answers");
    } catch (PageFile.CorruptPageException e) {
      closeQuietly(ch);
      client.release(key);
      client.corrupt(key);
      return PageLookup.miss();
    } catch (IOException e) {
      closeQuietly(ch);
      client.release(key);
      throw e;
    }
  }

  private static void closeQuietly(FileChannel ch) {
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException e) {
        // read-only
      }
    }
  }
}
